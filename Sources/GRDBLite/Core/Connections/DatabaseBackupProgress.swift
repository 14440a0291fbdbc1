/// How far a backup has gone, as reported after each step of
/// ``DatabaseReader/backup(to:pagesPerStep:progress:)``.
///
/// ```swift
/// try source.backup(to: destination, pagesPerStep: 100) { progress in
///     print("\(progress.completedPageCount) of \(progress.totalPageCount)")
/// }
/// ```
public struct DatabaseBackupProgress: Sendable {
    /// The number of pages still to copy.
    public let remainingPageCount: Int

    /// The number of pages of the source database.
    public let totalPageCount: Int

    /// The number of pages copied so far.
    public var completedPageCount: Int {
        totalPageCount - remainingPageCount
    }

    /// Whether every page is copied: the last report of a backup.
    public let isCompleted: Bool
}
