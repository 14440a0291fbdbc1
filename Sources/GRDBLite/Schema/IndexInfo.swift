/// An index of a table, as `PRAGMA index_list` and `PRAGMA index_info`
/// describe it. Indexes on expressions are not listed.
///
/// ```swift
/// let index = try db.indexes(on: "book")[0]
/// index.name     // "book_on_authorId"
/// index.columns  // ["authorId"]
/// index.isUnique // false
/// ```
public struct IndexInfo: Sendable {
    /// What created an index.
    public struct Origin: RawRepresentable, Equatable, Sendable, DatabaseValueConvertible {
        public var rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// `CREATE INDEX`.
        public static let createIndex = Origin(rawValue: "c")
        /// A UNIQUE constraint.
        public static let uniqueConstraint = Origin(rawValue: "u")
        /// A PRIMARY KEY constraint.
        public static let primaryKeyConstraint = Origin(rawValue: "pk")
    }

    /// The index name.
    public let name: String
    /// The indexed columns, in order.
    public let columns: [String]
    /// Whether the index is unique.
    public let isUnique: Bool
    /// What created the index.
    public let origin: Origin
}
