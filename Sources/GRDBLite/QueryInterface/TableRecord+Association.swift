// Associations of record types, and requests that join them.

// MARK: - Defining associations

extension TableRecord {
    /// The association to the record that a foreign key of this table
    /// refers to.
    ///
    /// ```swift
    /// // CREATE TABLE book (..., authorId INTEGER REFERENCES author(id))
    /// extension Book {
    ///     static let author = belongsTo(Author.self)
    /// }
    /// ```
    ///
    /// - parameters:
    ///   - destination: The record type of the associated table.
    ///   - key: The name of the association, by default the destination
    ///     table name (`author`).
    ///   - foreignKey: The foreign key, by default the single foreign key
    ///     of this table to the destination table. A missing or ambiguous
    ///     foreign key is a programmer error, when the association is used.
    public static func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> BelongsToAssociation<Self, Destination>
    {
        BelongsToAssociation(to: Destination.all().relation, key: key, using: foreignKey)
    }

    /// The association to the records whose foreign key refers to this
    /// table.
    ///
    /// ```swift
    /// // CREATE TABLE book (..., authorId INTEGER REFERENCES author(id))
    /// extension Author {
    ///     static let books = hasMany(Book.self)
    /// }
    /// ```
    ///
    /// - parameters:
    ///   - destination: The record type of the associated table.
    ///   - key: The name of the association, by default the destination
    ///     table name, pluralized (`books`).
    ///   - foreignKey: The foreign key, by default the single foreign key
    ///     of the destination table to this table.
    public static func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasManyAssociation<Self, Destination>
    {
        HasManyAssociation(to: Destination.all().relation, key: key, using: foreignKey)
    }

    /// The association to the single record whose foreign key refers to
    /// this table.
    ///
    /// - parameters:
    ///   - destination: The record type of the associated table.
    ///   - key: The name of the association, by default the destination
    ///     table name.
    ///   - foreignKey: The foreign key, by default the single foreign key
    ///     of the destination table to this table.
    public static func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasOneAssociation<Self, Destination>
    {
        HasOneAssociation(to: Destination.all().relation, key: key, using: foreignKey)
    }

    /// The association to a table without record type, which a foreign key
    /// of this table refers to.
    public static func belongsTo<Destination>(
        _ destination: Table<Destination>,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> BelongsToAssociation<Self, Destination>
    {
        BelongsToAssociation(to: destination.all().relation, key: key, using: foreignKey)
    }

    /// The association to the rows of a table without record type, whose
    /// foreign key refers to this table.
    public static func hasMany<Destination>(
        _ destination: Table<Destination>,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasManyAssociation<Self, Destination>
    {
        HasManyAssociation(to: destination.all().relation, key: key, using: foreignKey)
    }

    /// The association to the single row of a table without record type,
    /// whose foreign key refers to this table.
    public static func hasOne<Destination>(
        _ destination: Table<Destination>,
        key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasOneAssociation<Self, Destination>
    {
        HasOneAssociation(to: destination.all().relation, key: key, using: foreignKey)
    }

    /// The association to the records of `target`, reached through the
    /// `pivot` association.
    ///
    /// ```swift
    /// extension Country {
    ///     static let passports = hasMany(Passport.self)
    ///     static let citizens = hasMany(Citizen.self, through: passports, using: Passport.citizen)
    /// }
    /// ```
    ///
    /// - parameter destination: The record type of the associated table.
    /// - parameter pivot: The association from this table to the pivot.
    /// - parameter target: The association from the pivot to the target.
    /// - parameter key: The name of the association, by default the key of
    ///   `target`, pluralized.
    public static func hasMany<Pivot: Association, Target: Association>(
        _ destination: Target.RowDecoder.Type,
        through pivot: Pivot,
        using target: Target,
        key: String? = nil) -> HasManyThroughAssociation<Self, Target.RowDecoder>
    where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        let association = HasManyThroughAssociation<Self, Target.RowDecoder>(through: pivot, using: target)
        return key.map(association.forKey) ?? association
    }

    /// The association to the record of the to-one association `target`,
    /// reached through the to-one association `pivot`.
    ///
    /// ```swift
    /// extension Book {
    ///     static let author = belongsTo(Author.self)
    ///     static let country = hasOne(Country.self, through: author, using: Author.country)
    /// }
    /// ```
    public static func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
        _ destination: Target.RowDecoder.Type,
        through pivot: Pivot,
        using target: Target,
        key: String? = nil) -> HasOneThroughAssociation<Self, Target.RowDecoder>
    where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        let association = HasOneThroughAssociation<Self, Target.RowDecoder>(through: pivot, using: target)
        return key.map(association.forKey) ?? association
    }
}

// MARK: - Associated records

extension TableRecord where Self: EncodableRecord {
    /// A request of the records associated with this record.
    ///
    /// ```swift
    /// // SELECT * FROM book WHERE authorId = ?
    /// let books = try author.request(for: Author.books).fetchAll(db)
    /// // SELECT * FROM author WHERE id = ?
    /// let author = try book.request(for: Book.author).fetchOne(db)
    /// ```
    ///
    /// A record whose key is NULL has no associated record.
    public func request<A: Association>(for association: A) -> QueryInterfaceRequest<A.RowDecoder>
    where A.OriginRowDecoder == Self
    {
        // Errors of the encoding are thrown when the request is fetched.
        let container = Result { try PersistenceContainer(self) }
        let originTable = Self.databaseTableName
        var association = association._sqlAssociation
        let pivotTable = association.pivot.relation.source.tableName
        let condition = association.pivot.condition
        association.pivot.relation = association.pivot.relation.filter { db in
            let mapping = try condition.joinMapping(db, leftTable: originTable, rightTable: pivotTable)
            let container = try container.get()
            let key = mapping.map { pair in
                guard let value = container.databaseValue(forColumn: pair.left) else {
                    fatalError("request(for:) needs the column \(pair.left) in the encoded \(Self.self)")
                }
                return value
            }
            return .rows(withColumns: mapping.map(\.right), matching: [key])
        }
        return QueryInterfaceRequest(relation: association.destinationRelation())
    }
}

// MARK: - Joining associations

extension TableRecord {
    /// All records, with the prefetched records of a to-many association:
    /// see ``JoinableRequest/including(all:)``.
    public static func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().including(all: association)
    }

    /// All records, with an association joined with LEFT JOIN: see
    /// ``JoinableRequest/including(optional:)``.
    public static func including<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().including(optional: association)
    }

    /// The records that have an associated record, joined with JOIN: see
    /// ``JoinableRequest/including(required:)``.
    public static func including<A: Association>(required association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().including(required: association)
    }

    /// All records, with an association joined with LEFT JOIN, not
    /// selected: see ``JoinableRequest/joining(optional:)``.
    public static func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().joining(optional: association)
    }

    /// The records that have an associated record, not selected: see
    /// ``JoinableRequest/joining(required:)``.
    public static func joining<A: Association>(required association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().joining(required: association)
    }

    /// All records, with the columns of an association joined with LEFT
    /// JOIN appended to the selection.
    public static func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().annotated(withOptional: association)
    }

    /// The records that have an associated record, with its columns
    /// appended to the selection.
    public static func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<Self>
    where A.OriginRowDecoder == Self
    {
        all().annotated(withRequired: association)
    }

    // MARK: Aggregates

    /// All records, annotated with aggregates of to-many associations:
    /// `Author.annotated(with: Author.books.count)`.
    public static func annotated(with aggregates: AssociationAggregate<Self>...) -> QueryInterfaceRequest<Self> {
        all().annotated(with: aggregates)
    }

    /// All records, annotated with aggregates of to-many associations.
    public static func annotated(with aggregates: [AssociationAggregate<Self>]) -> QueryInterfaceRequest<Self> {
        all().annotated(with: aggregates)
    }

    /// The records whose aggregate of a to-many association matches a
    /// condition: `Author.having(Author.books.count > 2)`.
    public static func having(_ predicate: AssociationAggregate<Self>) -> QueryInterfaceRequest<Self> {
        all().having(predicate)
    }
}
