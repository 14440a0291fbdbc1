extension Database {
    /// How SQLite resolves a constraint conflict (`INSERT OR REPLACE`,
    /// `ON CONFLICT IGNORE`...).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_conflict.html>
    public enum ConflictResolution: String, Sendable {
        case rollback = "ROLLBACK"
        case abort = "ABORT"
        case fail = "FAIL"
        case ignore = "IGNORE"
        case replace = "REPLACE"
    }
}
