/// The columns that link the tables of an association, when the database
/// schema can't tell them: the table has no foreign key, or several.
///
/// ```swift
/// // book.authorId and book.translatorId both refer to person.id:
/// extension Book {
///     static let author = belongsTo(Person.self, key: "author", using: ForeignKey(["authorId"]))
///     static let translator = belongsTo(Person.self, key: "translator", using: ForeignKey(["translatorId"]))
/// }
/// ```
///
/// The origin columns belong to the table that holds the foreign key (the
/// `book` table above, for `belongsTo` as for `hasMany`). Without
/// destination columns, they refer to the schema foreign key made of the
/// origin columns, or else to the primary key of the destination table.
public struct ForeignKey: Equatable, Sendable {
    /// The referencing columns.
    var originColumns: [String]
    /// The referenced columns, if given.
    var destinationColumns: [String]?

    /// A foreign key made of `originColumns`, which refer to
    /// `destinationColumns` (by default, the primary key of the referenced
    /// table).
    public init(_ originColumns: [String], to destinationColumns: [String]? = nil) {
        self.originColumns = originColumns
        self.destinationColumns = destinationColumns
    }

    /// A foreign key made of `originColumns`, which refer to
    /// `destinationColumns` (by default, the primary key of the referenced
    /// table).
    public init(_ originColumns: [any ColumnExpression], to destinationColumns: [any ColumnExpression]? = nil) {
        self.init(originColumns.map(\.name), to: destinationColumns?.map(\.name))
    }
}
