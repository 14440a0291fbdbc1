/// A type that can stop an activity, such as a database observation.
public protocol DatabaseCancellable: Sendable {
    /// Stops the activity. Calling it again does nothing.
    func cancel()
}

/// A cancellable that runs a closure when it is cancelled, or when it is
/// deinitialized without having been cancelled.
///
/// Keep the cancellable of an observation as long as the observation
/// should last:
///
/// ```swift
/// let cancellable = observation.start(in: dbQueue) { error in
///     // handle the error
/// } onChange: { players in
///     print("Fresh players: \(players)")
/// }
/// // later
/// cancellable.cancel()
/// ```
public final class AnyDatabaseCancellable: DatabaseCancellable {
    /// nil once cancelled.
    private let onCancel: Locked<(@Sendable () -> Void)?>

    /// A cancellable that calls `cancel` when it is cancelled for the first
    /// time.
    public init(cancel: @escaping @Sendable () -> Void) {
        onCancel = Locked(cancel)
    }

    /// A cancellable that cancels `base`.
    public convenience init(_ base: some DatabaseCancellable) {
        self.init { base.cancel() }
    }

    deinit {
        cancel()
    }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool {
        onCancel.withLock { $0 == nil }
    }

    public func cancel() {
        // The closure runs outside of the lock: it may cancel other
        // cancellables, or this one again.
        let onCancel = self.onCancel.withLock { onCancel in
            defer { onCancel = nil }
            return onCancel
        }
        onCancel?()
    }
}
