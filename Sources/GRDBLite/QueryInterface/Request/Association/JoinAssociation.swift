/// An association without foreign key, to a common table expression or
/// from one: its rows match an expression of the two tables, or all rows
/// match.
///
/// ```swift
/// let latestPost = Chat.association(to: latestPostCTE) { chat, post in
///     chat[Column("id")] == post[Column("chatId")]
/// }
/// let request = Chat.with(latestPostCTE).including(optional: latestPost)
/// ```
///
/// It can only be joined: `including(required:)`, `including(optional:)`,
/// `joining(required:)`, `joining(optional:)`.
public struct JoinAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    /// The model of the association. Not an API: public because
    /// ``Association`` requires it, as in GRDB.
    public var _sqlAssociation: _SQLAssociation

    /// The association to all rows of `destination`.
    init(to destination: SQLRelation) {
        _sqlAssociation = _SQLAssociation(
            key: .inflected(destination.source.tableName),
            condition: SQLAssociationCondition(.none),
            relation: destination,
            isToMany: false)
    }

    /// The association to the rows of `destination` that match
    /// `condition`.
    init(
        to destination: SQLRelation,
        on condition:
            @escaping @Sendable (_ left: TableAlias<Origin>, _ right: TableAlias<Destination>) -> any SQLExpressible
    )
    {
        _sqlAssociation = _SQLAssociation(
            key: .inflected(destination.source.tableName),
            condition: SQLAssociationCondition(.expression { left, right in
                condition(TableAlias(proxyOf: left), TableAlias(proxyOf: right)).sqlExpression
            }),
            relation: destination,
            isToMany: false)
    }
}

extension TableRecord {
    /// The association to the rows of a common table expression that match
    /// `condition`.
    ///
    /// ```swift
    /// let latestPost = Chat.association(to: latestPostCTE) { chat, post in
    ///     chat[Column("id")] == post[Column("chatId")]
    /// }
    /// ```
    public static func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition:
            @escaping @Sendable (_ left: TableAlias<Self>, _ right: TableAlias<Destination>) -> any SQLExpressible
    ) -> JoinAssociation<Self, Destination> {
        JoinAssociation(to: cte.relationForAll, on: condition)
    }

    /// The association to all rows of a common table expression.
    public static func association<Destination>(to cte: CommonTableExpression<Destination>) -> JoinAssociation<
        Self, Destination
    > {
        JoinAssociation(to: cte.relationForAll)
    }
}

extension Table {
    /// The association to the rows of a common table expression that match
    /// `condition`.
    public func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition:
            @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible
    ) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(to: cte.relationForAll, on: condition)
    }

    /// The association to all rows of a common table expression.
    public func association<Destination>(to cte: CommonTableExpression<Destination>) -> JoinAssociation<
        RowDecoder, Destination
    > {
        JoinAssociation(to: cte.relationForAll)
    }
}
