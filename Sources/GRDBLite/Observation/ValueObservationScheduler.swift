import Dispatch
import Foundation

/// Where and when a ``ValueObservation`` notifies its values and its
/// error: ``async(onQueue:)``, ``task``, ``immediate``, ``mainActor``.
public protocol ValueObservationScheduler: Sendable {
    /// Whether the initial value is notified synchronously, before
    /// `start` returns. Called once, from `start`.
    func immediateInitialValue() -> Bool

    /// Runs `action` later. Actions run one at a time, in the order they
    /// were scheduled.
    func schedule(_ action: @escaping @Sendable () -> Void)
}

/// A ``ValueObservationScheduler`` that notifies on the main actor.
public protocol ValueObservationMainActorScheduler: ValueObservationScheduler {
    /// Runs `action` later, on the main actor, in order.
    func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void)
}

extension ValueObservationMainActorScheduler {
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        scheduleOnMainActor(action)
    }
}

/// Identifies the main dispatch queue.
private let mainQueueKey: DispatchSpecificKey<Void> = {
    let key = DispatchSpecificKey<Void>()
    DispatchQueue.main.setSpecific(key: key, value: ())
    return key
}()

/// Whether the caller runs on the main thread, or on the main dispatch
/// queue, which is the main actor's executor. On Linux, once the main
/// thread calls `dispatchMain()` (as an `async` main function does), other
/// threads run the main queue: the main actor is then not the main thread.
func isOnMainActor() -> Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) != nil
}

/// Runs `action` on the main dispatch queue, which is the main actor's.
private func runOnMainActor(_ action: @escaping @MainActor () -> Void) {
    DispatchQueue.main.async {
        MainActor.assumeIsolated { action() }
    }
}

// MARK: - async(onQueue:)

/// Notifies values asynchronously on a dispatch queue. See
/// ``ValueObservationScheduler/async(onQueue:)``.
public struct AsyncValueObservationScheduler: ValueObservationScheduler {
    var queue: DispatchQueue

    /// Notifies values asynchronously on `queue`, which must be serial.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    public func immediateInitialValue() -> Bool { false }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        queue.async(execute: action)
    }
}

extension ValueObservationScheduler where Self == AsyncValueObservationScheduler {
    /// Notifies all values asynchronously on `queue`, which must be serial
    /// (a concurrent queue would notify values out of order).
    ///
    /// ```swift
    /// let cancellable = observation.start(
    ///     in: dbQueue,
    ///     scheduling: .async(onQueue: myQueue),
    ///     onError: { error in ... },
    ///     onChange: { players in ... })
    /// ```
    public static func async(onQueue queue: DispatchQueue) -> AsyncValueObservationScheduler {
        AsyncValueObservationScheduler(queue: queue)
    }
}

// MARK: - immediate

/// Notifies the initial value synchronously, when the observation starts,
/// and the other values asynchronously on the main actor. See
/// ``ValueObservationScheduler/immediate``.
public struct ImmediateValueObservationScheduler: ValueObservationMainActorScheduler {
    /// The `immediate` scheduler.
    public init() { }

    /// True. Traps unless called on the main thread or the main actor.
    public func immediateInitialValue() -> Bool {
        guard isOnMainActor() else {
            fatalError("""
                ValueObservation must be started from the main actor (the main thread or the main dispatch \
                queue) with the `.immediate` scheduler: use `.async(onQueue:)` or `.task` elsewhere
                """)
        }
        return true
    }

    public func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void) {
        runOnMainActor(action)
    }
}

extension ValueObservationScheduler where Self == ImmediateValueObservationScheduler {
    /// Notifies the initial value before `start` returns, and the next
    /// values asynchronously on the main actor (the main dispatch queue).
    ///
    /// ```swift
    /// let cancellable = observation.start(in: dbQueue, scheduling: .immediate) { error in
    ///     // handle the error
    /// } onChange: { players in
    ///     print("Fresh players: \(players)")
    /// }
    /// // Here "Fresh players" was printed.
    /// ```
    ///
    /// The observation must start on the main thread (it traps otherwise),
    /// and the initial fetch blocks it. On Linux, the next values arrive
    /// only if the main thread runs the main dispatch queue (an `async`
    /// main function, `dispatchMain()`, or a run loop).
    public static var immediate: ImmediateValueObservationScheduler {
        ImmediateValueObservationScheduler()
    }
}

extension ValueObservationMainActorScheduler where Self == ImmediateValueObservationScheduler {
    /// See ``ValueObservationScheduler/immediate``.
    public static var immediate: ImmediateValueObservationScheduler {
        ImmediateValueObservationScheduler()
    }
}

// MARK: - mainActor

/// Notifies all values asynchronously on the main actor. See
/// ``ValueObservationScheduler/mainActor``.
public final class DelayedMainActorValueObservationScheduler: ValueObservationMainActorScheduler {
    init() { }

    public func immediateInitialValue() -> Bool { false }

    public func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void) {
        runOnMainActor(action)
    }
}

extension ValueObservationScheduler where Self == DelayedMainActorValueObservationScheduler {
    /// Notifies all values asynchronously on the main actor (the main
    /// dispatch queue): the default of the `@MainActor` `start` method.
    public static var mainActor: DelayedMainActorValueObservationScheduler {
        DelayedMainActorValueObservationScheduler()
    }
}

// MARK: - task

/// Notifies all values from a task of its own. See
/// ``ValueObservationScheduler/task``.
public final class TaskValueObservationScheduler: ValueObservationScheduler {
    private let actions: AsyncStream<@Sendable () -> Void>.Continuation

    init(priority: TaskPriority?) {
        let (stream, actions) = AsyncStream.makeStream(of: (@Sendable () -> Void).self)
        self.actions = actions
        // The task ends when the scheduler is deinitialized.
        Task(priority: priority) {
            for await action in stream {
                action()
            }
        }
    }

    deinit {
        actions.finish()
    }

    public func immediateInitialValue() -> Bool { false }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        actions.yield(action)
    }
}

extension ValueObservationScheduler where Self == TaskValueObservationScheduler {
    /// Notifies all values from a task that the observation starts (on
    /// the cooperative thread pool): the default of
    /// ``ValueObservation/values(in:scheduling:bufferingPolicy:)``.
    public static var task: TaskValueObservationScheduler {
        TaskValueObservationScheduler(priority: nil)
    }

    /// Notifies all values from a task of the given priority.
    public static func task(priority: TaskPriority) -> TaskValueObservationScheduler {
        TaskValueObservationScheduler(priority: priority)
    }
}
