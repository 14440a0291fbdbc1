extension Database {
    /// What a foreign key does when the referenced row is deleted or
    /// updated.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/foreignkeys.html#fk_actions>
    public enum ForeignKeyAction: String, Sendable {
        /// Deletes or updates the referencing rows.
        case cascade = "CASCADE"
        /// Forbids the change while referencing rows exist.
        case restrict = "RESTRICT"
        /// Sets the referencing columns to NULL.
        case setNull = "SET NULL"
        /// Sets the referencing columns to their default value.
        case setDefault = "SET DEFAULT"
    }
}
