/// The association from a record to the records of another association,
/// through a pivot association: a country has many citizens through its
/// passports.
///
/// ```swift
/// extension Country {
///     static let passports = hasMany(Passport.self)
///     static let citizens = hasMany(Citizen.self, through: passports, using: Passport.citizen)
/// }
/// // SELECT country.*, citizen.* FROM country
/// // JOIN passport ON passport.countryCode = country.code
/// // JOIN citizen ON citizen.id = passport.citizenId
/// let request = Country.including(required: Country.citizens)
/// ```
///
/// See ``TableRecord/hasMany(_:through:using:key:)``.
public struct HasManyThroughAssociation<Origin, Destination>: AssociationToMany {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    /// The model of the association. Not an API: public because
    /// ``Association`` requires it, as in GRDB.
    public var _sqlAssociation: _SQLAssociation

    init<Pivot: Association, Target: Association>(through pivot: Pivot, using target: Target) {
        _sqlAssociation = target._sqlAssociation.through(pivot._sqlAssociation)
    }
}
