// The rows of schema introspection are records: `ColumnInfo` and
// `ForeignKeyViolation` fetch from SQL (`PRAGMA table_info`,
// `PRAGMA foreign_key_check`) like any `FetchableRecord`.

extension ColumnInfo: FetchableRecord { }

extension ForeignKeyViolation: FetchableRecord { }
