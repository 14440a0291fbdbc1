// Associations of tables without record type, and requests that join them:
//
//     let authorTable = Table("author")
//     let bookTable = Table("book")
//     let books = authorTable.hasMany(bookTable)
//     let rows = try authorTable.including(all: books).fetchAll(db)

extension Table {
    /// The association to the records that a foreign key of this table
    /// refers to. See ``TableRecord/belongsTo(_:key:using:)-(Destination.Type,_,_)``.
    public func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> BelongsToAssociation<RowDecoder, Destination>
    {
        BelongsToAssociation(to: Destination.all().relation, key: key, using: foreignKey)
    }

    /// The association to the records whose foreign key refers to this
    /// table. See ``TableRecord/hasMany(_:key:using:)-(Destination.Type,_,_)``.
    public func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasManyAssociation<RowDecoder, Destination>
    {
        HasManyAssociation(to: Destination.all().relation, key: key, using: foreignKey)
    }

    /// The association to the record whose foreign key refers to this
    /// table. See ``TableRecord/hasOne(_:key:using:)-(Destination.Type,_,_)``.
    public func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasOneAssociation<RowDecoder, Destination>
    {
        HasOneAssociation(to: Destination.all().relation, key: key, using: foreignKey)
    }

    /// The association to the rows of another table that a foreign key of
    /// this table refers to.
    public func belongsTo<Destination>(
        _ destination: Table<Destination>,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> BelongsToAssociation<RowDecoder, Destination>
    {
        BelongsToAssociation(to: destination.all().relation, key: key, using: foreignKey)
    }

    /// The association to the rows of another table whose foreign key
    /// refers to this table.
    public func hasMany<Destination>(
        _ destination: Table<Destination>,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasManyAssociation<RowDecoder, Destination>
    {
        HasManyAssociation(to: destination.all().relation, key: key, using: foreignKey)
    }

    /// The association to the row of another table whose foreign key
    /// refers to this table.
    public func hasOne<Destination>(
        _ destination: Table<Destination>,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasOneAssociation<RowDecoder, Destination>
    {
        HasOneAssociation(to: destination.all().relation, key: key, using: foreignKey)
    }

    /// The association to the rows of `target`, through `pivot`. See
    /// ``TableRecord/hasMany(_:through:using:key:)``.
    public func hasMany<Pivot: Association, Target: Association>(
        _ destination: Target.RowDecoder.Type,
        through pivot: Pivot,
        using target: Target,
        key: String? = nil) -> HasManyThroughAssociation<RowDecoder, Target.RowDecoder>
    where Pivot.OriginRowDecoder == RowDecoder, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        let association = HasManyThroughAssociation<RowDecoder, Target.RowDecoder>(through: pivot, using: target)
        return key.map(association.forKey) ?? association
    }

    /// The association to the row of `target`, through `pivot`. See
    /// ``TableRecord/hasOne(_:through:using:key:)``.
    public func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
        _ destination: Target.RowDecoder.Type,
        through pivot: Pivot,
        using target: Target,
        key: String? = nil) -> HasOneThroughAssociation<RowDecoder, Target.RowDecoder>
    where Pivot.OriginRowDecoder == RowDecoder, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        let association = HasOneThroughAssociation<RowDecoder, Target.RowDecoder>(through: pivot, using: target)
        return key.map(association.forKey) ?? association
    }

    // MARK: Joining

    /// All rows, with the prefetched rows of a to-many association.
    public func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().including(all: association)
    }

    /// All rows, with an association joined with LEFT JOIN.
    public func including<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().including(optional: association)
    }

    /// The rows that have an associated row, joined with JOIN.
    public func including<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().including(required: association)
    }

    /// All rows, with an association joined with LEFT JOIN, not selected.
    public func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().joining(optional: association)
    }

    /// The rows that have an associated row, not selected.
    public func joining<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().joining(required: association)
    }

    /// All rows, with the columns of an association joined with LEFT JOIN
    /// appended to the selection.
    public func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().annotated(withOptional: association)
    }

    /// The rows that have an associated row, with its columns appended to
    /// the selection.
    public func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<RowDecoder>
    where A.OriginRowDecoder == RowDecoder
    {
        all().annotated(withRequired: association)
    }

    // MARK: Aggregates

    /// All rows, annotated with aggregates of to-many associations.
    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: aggregates)
    }

    /// All rows, annotated with aggregates of to-many associations.
    public func annotated(with aggregates: [AssociationAggregate<RowDecoder>]) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: aggregates)
    }

    /// The rows whose aggregate of a to-many association matches a condition.
    public func having(_ predicate: AssociationAggregate<RowDecoder>) -> QueryInterfaceRequest<RowDecoder> {
        all().having(predicate)
    }
}
