extension Database {
    /// An SQLite storage class, the target of `cast(_:as:)`.
    ///
    /// See [Datatypes In SQLite](https://www.sqlite.org/datatype3.html).
    public struct StorageClass: RawRepresentable, Hashable, Sendable {
        /// The SQL of the storage class: `"INTEGER"`, `"REAL"`...
        public let rawValue: String

        /// A storage class, given its SQL.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// `INTEGER`
        public static let integer = StorageClass(rawValue: "INTEGER")

        /// `REAL`
        public static let real = StorageClass(rawValue: "REAL")

        /// `TEXT`
        public static let text = StorageClass(rawValue: "TEXT")

        /// `BLOB`
        public static let blob = StorageClass(rawValue: "BLOB")
    }
}
