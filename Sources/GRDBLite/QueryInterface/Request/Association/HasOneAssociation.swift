/// The association from a record to the single record whose foreign key
/// refers to it: each country has one profile.
///
/// ```swift
/// // CREATE TABLE profile (..., countryCode TEXT UNIQUE REFERENCES country(code))
/// extension Country {
///     static let profile = hasOne(Profile.self)
/// }
/// // SELECT country.*, profile.* FROM country LEFT JOIN profile ON profile.countryCode = country.code
/// let request = Country.including(optional: Country.profile)
/// ```
///
/// See ``TableRecord/hasOne(_:key:using:)-(Destination.Type,_,_)``.
public struct HasOneAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    /// The model of the association. Not an API: public because
    /// ``Association`` requires it, as in GRDB.
    public var _sqlAssociation: _SQLAssociation

    init(to destination: SQLRelation, key: String?, using foreignKey: ForeignKey?) {
        _sqlAssociation = _SQLAssociation(
            key: key.map { .fixedSingular($0) } ?? .inflected(destination.source.tableName),
            condition: SQLAssociationCondition(foreignKey: foreignKey, originIsLeft: false),
            relation: destination,
            isToMany: false)
    }
}
