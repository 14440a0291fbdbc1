/// The association from a record to the record its foreign key refers to:
/// each book belongs to its author.
///
/// ```swift
/// // CREATE TABLE book (..., authorId INTEGER REFERENCES author(id))
/// extension Book {
///     static let author = belongsTo(Author.self)
/// }
/// // SELECT book.*, author.* FROM book JOIN author ON author.id = book.authorId
/// let request = Book.including(required: Book.author)
/// ```
///
/// See ``TableRecord/belongsTo(_:key:using:)-(Destination.Type,_,_)``.
public struct BelongsToAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    /// The model of the association. Not an API: public because
    /// ``Association`` requires it, as in GRDB.
    public var _sqlAssociation: _SQLAssociation

    init(to destination: SQLRelation, key: String?, using foreignKey: ForeignKey?) {
        _sqlAssociation = _SQLAssociation(
            key: key.map { .fixedSingular($0) } ?? .inflected(destination.source.tableName),
            condition: SQLAssociationCondition(foreignKey: foreignKey, originIsLeft: true),
            relation: destination,
            isToMany: false)
    }
}
