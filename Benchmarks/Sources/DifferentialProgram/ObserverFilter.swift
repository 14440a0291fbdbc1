/// What the program's transaction observer observes (its
/// `observes(eventsOfKind:)`), and whether it stops after a change.
public enum ObserverFilter: String, Sendable, Codable, CaseIterable {
    /// Every event: `true`.
    case everything
    /// The changes of one table: `eventKind.tableName == "player"`.
    case players
    /// Insertions and deletions, not updates.
    case insertsAndDeletes
    /// Updates that set `score`: `case .update(_, let columns) = eventKind, columns.contains("score")`.
    case scoreUpdates
    /// Every event, but `stopObservingDatabaseChangesUntilNextTransaction()`
    /// after the first change of each transaction.
    case firstChangeOfEachTransaction
}
