extension Database {
    /// How long a transaction observer is notified.
    public enum TransactionObservationExtent: Sendable {
        /// Until the observer is deallocated: the database holds a weak
        /// reference to it. The default.
        case observerLifetime
        /// Until the current transaction ends, or the next one if none is
        /// open: the database retains the observer until its
        /// `databaseDidCommit` or `databaseDidRollback` is called.
        case nextTransaction
        /// Until the connection is closed: the database retains the observer.
        case databaseLifetime
    }
}

/// An observer added to a connection, held according to its extent.
final class TransactionObservation {
    let extent: Database.TransactionObservationExtent
    /// False after `stopObservingDatabaseChangesUntilNextTransaction()`:
    /// no change is notified until the transaction ends.
    var isEnabled = true
    private weak var weakObserver: (any TransactionObserver)?
    private var strongObserver: (any TransactionObserver)?
    /// The observer's identity, compared before the weak reference is
    /// loaded: `wraps` runs for each observation of each notified change.
    private let observerID: ObjectIdentifier
    /// Whether the observer only reads when told of a commit, and can
    /// share a read-only transaction with its neighbours (see
    /// `SharedCommitRead`).
    let sharesCommitRead: Bool

    init(observer: any TransactionObserver, extent: Database.TransactionObservationExtent) {
        self.extent = extent
        self.observerID = ObjectIdentifier(observer)
        self.sharesCommitRead = (observer as? any CommitReadSharingObserver)?.sharesCommitRead ?? false
        if case .observerLifetime = extent {
            weakObserver = observer
        } else {
            strongObserver = observer
        }
    }

    /// Nil once the observer is gone (deallocated, or its next transaction
    /// is over).
    var observer: (any TransactionObserver)? {
        strongObserver ?? weakObserver
    }

    /// Ends the observation: the observer gets no further notification.
    func detach() {
        weakObserver = nil
        strongObserver = nil
    }

    func wraps(_ observer: some TransactionObserver) -> Bool {
        observerID == ObjectIdentifier(observer) && self.observer === observer
    }

    /// The observer, if it is interested in changes.
    var enabledObserver: (any TransactionObserver)? {
        isEnabled ? observer : nil
    }

    func databaseDidCommit(_ db: Database) {
        // A `.nextTransaction` observer is released before it is notified,
        // so that the statements it may run don't notify it again.
        guard let observer = takeObserverForTransactionEnd() else { return }
        observer.databaseDidCommit(db)
    }

    func databaseDidRollback(_ db: Database) {
        guard let observer = takeObserverForTransactionEnd() else { return }
        observer.databaseDidRollback(db)
    }

    private func takeObserverForTransactionEnd() -> (any TransactionObserver)? {
        let observer = self.observer
        if case .nextTransaction = extent {
            strongObserver = nil
        }
        return observer
    }
}

/// An observer whose `databaseDidCommit` only reads, and can share a
/// read-only transaction with the observers next to it.
protocol CommitReadSharingObserver: TransactionObserver {
    /// Whether the observer's reads after a commit can share a read-only
    /// transaction, asked once when it is added.
    var sharesCommitRead: Bool { get }
}
