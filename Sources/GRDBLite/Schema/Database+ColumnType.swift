extension Database {
    /// The declared type of a column: `t.column("name", .text)`.
    ///
    /// SQLite derives the column affinity from it. Any type name is
    /// accepted: `Database.ColumnType(rawValue: "VARCHAR(255)")`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/datatype3.html>
    public struct ColumnType: RawRepresentable, Hashable, Sendable {
        /// The SQL type name.
        public let rawValue: String

        /// A column type.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// `TEXT`.
        public static let text = ColumnType(rawValue: "TEXT")
        /// `TEXT`, for JSON strings.
        public static let jsonText = ColumnType(rawValue: "TEXT")
        /// `BLOB`, for SQLite's binary JSON.
        public static let jsonb = ColumnType(rawValue: "BLOB")
        /// `INTEGER`.
        public static let integer = ColumnType(rawValue: "INTEGER")
        /// `DOUBLE`.
        public static let double = ColumnType(rawValue: "DOUBLE")
        /// `REAL`.
        public static let real = ColumnType(rawValue: "REAL")
        /// `NUMERIC`.
        public static let numeric = ColumnType(rawValue: "NUMERIC")
        /// `BOOLEAN`.
        public static let boolean = ColumnType(rawValue: "BOOLEAN")
        /// `BLOB`.
        public static let blob = ColumnType(rawValue: "BLOB")
        /// `DATE`.
        public static let date = ColumnType(rawValue: "DATE")
        /// `DATETIME`.
        public static let datetime = ColumnType(rawValue: "DATETIME")
        /// `ANY`, the column type of STRICT tables that accepts all values.
        public static let any = ColumnType(rawValue: "ANY")
    }
}
