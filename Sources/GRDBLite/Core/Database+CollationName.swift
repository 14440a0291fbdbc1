extension Database {
    /// The name of a collation, for `COLLATE` clauses and `collating(_:)`:
    /// SQLite's built-in collations (`t.column("name", .text).collate(.nocase)`),
    /// or the name of a ``DatabaseCollation``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/datatype3.html#collating_sequences>
    public struct CollationName: RawRepresentable, Hashable, Sendable {
        /// The collation name.
        public let rawValue: String

        /// A collation name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// `BINARY`: compares bytes (the default).
        public static let binary = CollationName(rawValue: "BINARY")
        /// `NOCASE`: ignores the case of ASCII letters.
        public static let nocase = CollationName(rawValue: "NOCASE")
        /// `RTRIM`: ignores trailing spaces.
        public static let rtrim = CollationName(rawValue: "RTRIM")
    }
}
