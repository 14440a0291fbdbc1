/// The association from a record to the record of a to-one association of
/// a to-one pivot: a book has one country through its author.
///
/// ```swift
/// extension Book {
///     static let author = belongsTo(Author.self)
///     static let country = hasOne(Country.self, through: author, using: Author.country)
/// }
/// // SELECT book.*, country.* FROM book
/// // JOIN author ON author.id = book.authorId
/// // JOIN country ON country.code = author.countryCode
/// let request = Book.including(required: Book.country)
/// ```
///
/// See ``TableRecord/hasOne(_:through:using:key:)``.
public struct HasOneThroughAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    /// The model of the association. Not an API: public because
    /// ``Association`` requires it, as in GRDB.
    public var _sqlAssociation: _SQLAssociation

    init<Pivot: AssociationToOne, Target: AssociationToOne>(through pivot: Pivot, using target: Target) {
        _sqlAssociation = target._sqlAssociation.through(pivot._sqlAssociation)
    }
}
