/// The values of a ``ValueObservation``, as an asynchronous sequence: see
/// ``ValueObservation/values(in:scheduling:bufferingPolicy:)``.
///
/// Each iteration starts its own observation, which stops when the
/// iteration ends or its task is cancelled.
public struct AsyncValueObservation<Element: Sendable>: AsyncSequence, Sendable {
    /// What happens to the values that the iteration has not consumed yet.
    public typealias BufferingPolicy = AsyncThrowingStream<Element, any Error>.Continuation.BufferingPolicy

    /// Starts an observation with its `onError`, `onChange` and `onEnd`
    /// callbacks.
    typealias Start = @Sendable (
        _ onError: @escaping @Sendable (any Error) -> Void,
        _ onChange: @escaping @Sendable (Element) -> Void,
        _ onEnd: @escaping @Sendable () -> Void) -> AnyDatabaseCancellable

    private let bufferingPolicy: BufferingPolicy
    private let start: Start

    init(bufferingPolicy: BufferingPolicy, start: @escaping Start) {
        self.bufferingPolicy = bufferingPolicy
        self.start = start
    }

    /// The iterator of the values.
    public typealias AsyncIterator = Iterator

    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        let cancellable = start(
            { error in continuation.finish(throwing: error) },
            { value in continuation.yield(value) },
            { continuation.finish() })
        // Ending the iteration (or cancelling its task) stops the
        // observation. The iterator, which the iterating task keeps,
        // retains the cancellable: releasing it stops the observation too.
        continuation.onTermination = { [weak cancellable] _ in cancellable?.cancel() }
        return Iterator(base: stream.makeAsyncIterator(), cancellable: cancellable)
    }

    /// The iterator of an ``AsyncValueObservation``.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.AsyncIterator
        let cancellable: AnyDatabaseCancellable

        public mutating func next() async throws -> Element? {
            try await base.next()
        }
    }
}
