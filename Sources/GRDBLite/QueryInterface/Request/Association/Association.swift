/// A link between two record types, through a foreign key: `belongsTo`,
/// `hasMany`, `hasOne`, and their variants through a pivot.
///
/// ```swift
/// extension Book {
///     static let author = belongsTo(Author.self)
/// }
/// extension Author {
///     static let books = hasMany(Book.self)
/// }
/// ```
///
/// An association is a request of its destination records: it can be
/// filtered, ordered, or refined with the methods of ``DerivableRequest``
/// (`Book.author.filter(countryCode: "FR")`), and joined to a request of
/// its origin records (`Book.including(required: Book.author)`).
///
/// `OriginRowDecoder` and `RowDecoder` make joins type-safe:
/// `Book.including(required: Book.author)` compiles,
/// `Author.including(required: Book.author)` does not.
public protocol Association: DerivableRequest, Sendable {
    /// The record type at the origin of the association.
    associatedtype OriginRowDecoder

    /// The model of the association. Not an API: public so that the
    /// protocol's extensions can build requests from it, as in GRDB.
    var _sqlAssociation: _SQLAssociation { get set }

    /// The association, with another key: the name of its row scope, or of
    /// its prefetched rows, and the radical of its aggregates.
    ///
    /// ```swift
    /// // row.scopes["writer"]
    /// let request = Book.including(required: Book.author.forKey("writer"))
    /// ```
    func forKey(_ key: String) -> Self
}

extension Association {
    /// The association, with another key.
    public func forKey(_ codingKey: some CodingKey) -> Self {
        forKey(codingKey.stringValue)
    }

    /// The key of the association.
    var key: SQLAssociationKey { _sqlAssociation.destination.key }

    /// The association, with its destination relation updated.
    fileprivate func withDestination(_ update: (inout SQLRelation) -> Void) -> Self {
        var result = self
        update(&result._sqlAssociation.destination.relation)
        return result
    }

    fileprivate func withKey(_ key: SQLAssociationKey) -> Self {
        var result = self
        result._sqlAssociation.destination.key = key
        return result
    }
}

// MARK: - DerivableRequest

extension Association {
    public var databaseTableName: String {
        _sqlAssociation.destination.relation.source.tableName
    }

    /// Not an API: public because ``TableRequest`` requires it, as in GRDB.
    /// Use `aliased(_:)`.
    public func _aliased(_ alias: TableAliasBase) -> Self {
        withDestination { $0 = $0.aliased(alias) }
    }

    public func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self {
        withDestination { $0 = $0.select { db in try selection(db).map(\.sqlSelection) } }
    }

    public func annotatedWhenConnected(with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable])
        -> Self
    {
        withDestination { $0 = $0.annotated { db in try selection(db).map(\.sqlSelection) } }
    }

    public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        withDestination { $0 = $0.filter { db in try predicate(db).sqlExpression } }
    }

    public func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self
    {
        withDestination { $0 = $0.order { db in try orderings(db).map(\.sqlOrdering) } }
    }

    public func reversed() -> Self {
        withDestination { $0 = $0.reversed() }
    }

    public func unordered() -> Self {
        withDestination { $0 = $0.unordered() }
    }

    public func withStableOrder() -> Self {
        withDestination { $0 = $0.withStableOrder() }
    }

    public func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> Self
    {
        withDestination { $0 = $0.group { db in try expressions(db).map(\.sqlExpression) } }
    }

    public func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        withDestination { $0 = $0.having { db in try predicate(db).sqlExpression } }
    }

    public func distinct() -> Self {
        withDestination { $0.isDistinct = true }
    }

    /// Not an API: public because ``JoinableRequest`` requires it, as in
    /// GRDB. Use `including(all:)`.
    public func _including(all association: _SQLAssociation) -> Self {
        withDestination { $0 = $0.appendingChild(for: association, kind: .all) }
    }

    /// Not an API: public because ``JoinableRequest`` requires it, as in
    /// GRDB. Use `including(optional:)`.
    public func _including(optional association: _SQLAssociation) -> Self {
        withDestination { $0 = $0.appendingChild(for: association, kind: .oneOptional) }
    }

    /// Not an API: public because ``JoinableRequest`` requires it, as in
    /// GRDB. Use `including(required:)`.
    public func _including(required association: _SQLAssociation) -> Self {
        withDestination { $0 = $0.appendingChild(for: association, kind: .oneRequired) }
    }

    /// Not an API: public because ``JoinableRequest`` requires it, as in
    /// GRDB. Use `joining(optional:)`.
    public func _joining(optional association: _SQLAssociation) -> Self {
        withDestination { $0 = $0.appendingChild(for: association.withoutSelectedColumns(), kind: .oneOptional) }
    }

    /// Not an API: public because ``JoinableRequest`` requires it, as in
    /// GRDB. Use `joining(required:)`.
    public func _joining(required association: _SQLAssociation) -> Self {
        withDestination { $0 = $0.appendingChild(for: association.withoutSelectedColumns(), kind: .oneRequired) }
    }
}

// MARK: - To-one and to-many

/// An association to at most one record: `belongsTo`, `hasOne`.
public protocol AssociationToOne: Association { }

extension AssociationToOne {
    /// The association, with another key (singular, pluralized when
    /// needed).
    public func forKey(_ key: String) -> Self {
        withKey(.fixedSingular(key))
    }
}

/// An association to any number of records: `hasMany`. Its records can be
/// prefetched (`including(all:)`) and aggregated (`Author.books.count`).
public protocol AssociationToMany: Association { }

extension AssociationToMany {
    /// The association, with another key (plural, singularized when
    /// needed).
    public func forKey(_ key: String) -> Self {
        withKey(.fixedPlural(key))
    }
}
