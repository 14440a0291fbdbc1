/// The association from a record to the records whose foreign key refers
/// to it: each author has many books.
///
/// ```swift
/// // CREATE TABLE book (..., authorId INTEGER REFERENCES author(id))
/// extension Author {
///     static let books = hasMany(Book.self)
/// }
/// // SELECT * FROM author
/// // SELECT *, authorId AS grdb_authorId FROM book WHERE authorId IN (1, 2, 3)
/// let request = Author.including(all: Author.books)
/// ```
///
/// See ``TableRecord/hasMany(_:key:using:)-(Destination.Type,_,_)``.
public struct HasManyAssociation<Origin, Destination>: AssociationToMany {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    /// The model of the association. Not an API: public because
    /// ``Association`` requires it, as in GRDB.
    public var _sqlAssociation: _SQLAssociation

    init(to destination: SQLRelation, key: String?, using foreignKey: ForeignKey?) {
        _sqlAssociation = _SQLAssociation(
            key: key.map { .fixedPlural($0) } ?? .inflected(destination.source.tableName),
            condition: SQLAssociationCondition(foreignKey: foreignKey, originIsLeft: false),
            relation: destination,
            isToMany: true)
    }
}
