// Aggregates of to-many associations: `Author.books.count`,
// `Author.books.max(Column("year"))`...
//
// An aggregate joins its association with LEFT JOIN, groups the request by
// primary key, and selects (`annotated(with:)`) or filters (`having(_:)`)
// an aggregate of the associated rows:
//
//     // SELECT author.*, COUNT(DISTINCT book.id) AS bookCount
//     // FROM author
//     // LEFT JOIN book ON book.authorId = author.id
//     // GROUP BY author.id
//     Author.annotated(with: Author.books.count)

extension AssociationToMany {
    /// An aggregate of the association, computed from the alias of its
    /// table.
    private func aggregate(
        _ expression: @escaping @Sendable (Database, TableAliasBase) throws -> SQLExpression)
    -> AssociationAggregate<OriginRowDecoder>
    {
        AssociationAggregate {
            // A new alias each time the aggregate joins a request, so that
            // a stored aggregate can serve several requests. When the
            // request already joins the association (another aggregate),
            // the joins merge, and so do their aliases.
            let alias = TableAliasBase()
            let association = self._aliased(alias)._sqlAssociation
            return ([association], DatabasePromise { db in try expression(db, alias) })
        }
    }

    /// An aggregate of an expression of the associated rows, named after
    /// the association and the column, if the expression is a column.
    private func aggregate(
        _ function: String,
        _ expression: some SQLSpecificExpressible,
        key makeKey: (_ association: String, _ column: String) -> String)
    -> AssociationAggregate<OriginRowDecoder>
    {
        let expression = expression.sqlExpression
        var aggregate = aggregate { _, alias in .aggregate(function, [expression.qualified(with: alias)]) }
        if case .column(let column) = expression.impl {
            aggregate.key = makeKey(key.singularName, column)
        }
        return aggregate
    }

    /// The number of associated rows: `COUNT(DISTINCT book.id)`, named
    /// `bookCount`.
    public var count: AssociationAggregate<OriginRowDecoder> {
        let tableName = databaseTableName
        var aggregate = aggregate { db, alias in
            try .aggregate("COUNT", [alias[Self.identifyingColumn(db, tableName)]], isDistinct: true)
        }
        aggregate.key = key.singularName + "Count"
        return aggregate
    }

    /// Whether there is no associated row: `COUNT(DISTINCT book.id) = 0`,
    /// named `hasNoBook`.
    public var isEmpty: AssociationAggregate<OriginRowDecoder> {
        let tableName = databaseTableName
        var aggregate = aggregate { db, alias in
            let count = try SQLExpression.aggregate(
                "COUNT", [alias[Self.identifyingColumn(db, tableName)]], isDistinct: true)
            // A literal 0, as GRDB writes it (not a statement argument).
            return .compare(.equal, count, SQLExpression(impl: .literal(SQL(sql: "0"))))
        }
        aggregate.key = "hasNo" + key.singularName.uppercasingFirstCharacter
        return aggregate
    }

    /// The average of an expression: `AVG(book.year)`, named
    /// `averageBookYear` for a column.
    public func average(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate("AVG", expression) { "average" + $0.uppercasingFirstCharacter + $1.uppercasingFirstCharacter }
    }

    /// The maximum of an expression: `MAX(book.year)`, named `maxBookYear`
    /// for a column.
    public func max(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate("MAX", expression) { "max" + $0.uppercasingFirstCharacter + $1.uppercasingFirstCharacter }
    }

    /// The minimum of an expression: `MIN(book.year)`, named `minBookYear`
    /// for a column.
    public func min(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate("MIN", expression) { "min" + $0.uppercasingFirstCharacter + $1.uppercasingFirstCharacter }
    }

    /// The sum of an expression: `SUM(book.pages)`, named `bookPagesSum`
    /// for a column. NULL without associated row.
    public func sum(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate("SUM", expression) { $0 + $1.uppercasingFirstCharacter + "Sum" }
    }

    /// The sum of an expression, as a double: `TOTAL(book.pages)`, named
    /// `bookPagesSum` for a column. 0.0 without associated row.
    public func total(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate("TOTAL", expression) { $0 + $1.uppercasingFirstCharacter + "Sum" }
    }

    /// The column that identifies a row of `tableName`, for COUNT(DISTINCT):
    /// the rowid, or the single-column primary key of a WITHOUT ROWID table.
    private static func identifyingColumn(_ db: Database, _ tableName: String) throws -> String {
        let primaryKey = try db.primaryKey(tableName)
        if let column = primaryKey.rowIDColumn { return column }
        if primaryKey.tableHasRowID { return "rowid" }
        precondition(
            primaryKey.columns.count == 1,
            "Not implemented: count the rows of the WITHOUT ROWID table \(tableName), which has a composite primary key"
        )
        return primaryKey.columns[0]
    }
}

extension AssociationToMany where RowDecoder: TableRecord {
    /// What the closures of aggregates receive: the `Columns` of the
    /// associated record.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// The average of an expression of the record's columns:
    /// `Author.books.average { $0.year }`.
    public func average(
        _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible)
    rethrows -> AssociationAggregate<OriginRowDecoder>
    {
        try average(expression(RowDecoder.databaseComponents))
    }

    /// The maximum of an expression of the record's columns:
    /// `Author.books.max { $0.year }`.
    public func max(
        _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible)
    rethrows -> AssociationAggregate<OriginRowDecoder>
    {
        try max(expression(RowDecoder.databaseComponents))
    }

    /// The minimum of an expression of the record's columns.
    public func min(
        _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible)
    rethrows -> AssociationAggregate<OriginRowDecoder>
    {
        try min(expression(RowDecoder.databaseComponents))
    }

    /// The sum of an expression of the record's columns.
    public func sum(
        _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible)
    rethrows -> AssociationAggregate<OriginRowDecoder>
    {
        try sum(expression(RowDecoder.databaseComponents))
    }

    /// The sum of an expression of the record's columns, as a double.
    public func total(
        _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible)
    rethrows -> AssociationAggregate<OriginRowDecoder>
    {
        try total(expression(RowDecoder.databaseComponents))
    }
}

/// An aggregate of the associated rows of `RowDecoder` records: see
/// ``AssociationToMany/count``. Aggregates combine with operators:
/// `Author.books.count > 2`, `Author.books.max(year) - Author.books.min(year)`.
public struct AssociationAggregate<RowDecoder>: Sendable {
    /// Returns the associations to join, each with a new alias, and the
    /// aggregate expression, which refers to those aliases.
    fileprivate let prepare:
        @Sendable () -> (associations: [_SQLAssociation], expression: DatabasePromise<SQLExpression>)

    /// The name of the selected aggregate, if any.
    var key: String?

    fileprivate init(
        key: String? = nil,
        prepare: @escaping @Sendable () -> (associations: [_SQLAssociation], expression: DatabasePromise<SQLExpression>)
    )
    {
        self.key = key
        self.prepare = prepare
    }

    /// The aggregate, selected under another name.
    ///
    /// ```swift
    /// // SELECT author.*, COUNT(DISTINCT book.id) AS numberOfBooks ...
    /// let request = Author.annotated(with: Author.books.count.forKey("numberOfBooks"))
    /// ```
    public func forKey(_ key: String) -> Self {
        var result = self
        result.key = key
        return result
    }

    /// The aggregate, selected under the name of a coding key.
    public func forKey(_ key: some CodingKey) -> Self {
        forKey(key.stringValue)
    }

    /// `request`, joined with the associations of the aggregate and grouped
    /// by primary key, and the aggregate expression.
    func prepared<Request: DerivableRequest>(on request: Request) -> (Request, DatabasePromise<SQLExpression>)
    where Request.RowDecoder == RowDecoder
    {
        let (associations, expression) = prepare()
        let joined = associations.reduce(request) { $0._joining(optional: $1) }
        return (joined.groupByPrimaryKey(), expression)
    }

    /// An unnamed aggregate, whose expression is transformed.
    fileprivate func map(_ transform: @escaping @Sendable (SQLExpression) -> SQLExpression) -> Self {
        AssociationAggregate { [prepare] in
            let (associations, expression) = prepare()
            return (associations, DatabasePromise { db in try transform(expression.resolve(db)) })
        }
    }

    /// An unnamed aggregate that combines two aggregates.
    fileprivate static func combine(
        _ lhs: Self,
        _ rhs: Self,
        _ combine: @escaping @Sendable (SQLExpression, SQLExpression) -> SQLExpression) -> Self
    {
        AssociationAggregate { [lhs = lhs.prepare, rhs = rhs.prepare] in
            let (lhsAssociations, lhsExpression) = lhs()
            let (rhsAssociations, rhsExpression) = rhs()
            return (lhsAssociations + rhsAssociations, DatabasePromise { db in
                try combine(lhsExpression.resolve(db), rhsExpression.resolve(db))
            })
        }
    }
}

// MARK: - Requests

extension DerivableRequest {
    /// Appends aggregates of to-many associations to the selection.
    ///
    /// ```swift
    /// struct AuthorInfo: Decodable, FetchableRecord {
    ///     var author: Author
    ///     var bookCount: Int
    /// }
    /// let infos = try Author.annotated(with: Author.books.count).asRequest(of: AuthorInfo.self).fetchAll(db)
    /// ```
    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> Self {
        annotated(with: aggregates)
    }

    /// Appends aggregates of to-many associations to the selection.
    public func annotated(with aggregates: [AssociationAggregate<RowDecoder>]) -> Self {
        aggregates.reduce(self) { request, aggregate in
            let (request, expression) = aggregate.prepared(on: request)
            let key = aggregate.key
            return request.annotatedWhenConnected { db in
                let expression = try expression.resolve(db)
                return [key.map { expression.forKey($0) } ?? expression]
            }
        }
    }

    /// Keeps the rows whose aggregate matches: `having(Author.books.count > 2)`.
    public func having(_ predicate: AssociationAggregate<RowDecoder>) -> Self {
        let (request, expression) = predicate.prepared(on: self)
        return request.havingWhenConnected { db in try expression.resolve(db) }
    }
}

// MARK: - Operators

extension AssociationAggregate {
    /// `NOT aggregate`
    public static prefix func ! (aggregate: Self) -> Self {
        aggregate.map { expression in
            // `!isEmpty`: `COUNT(DISTINCT book.id) > 0`, as GRDB writes it.
            if let (count, zero) = emptinessTest(expression) { return .binary(.greaterThan, count, zero) }
            return !expression
        }
    }

    /// The count and the zero of `isEmpty` (`COUNT(DISTINCT book.id) = 0`).
    private static func emptinessTest(_ expression: SQLExpression) -> (count: SQLExpression, zero: SQLExpression)? {
        if case let .compare(.equal, count, zero) = expression.impl,
            case .aggregate("COUNT", _, true, nil, nil) = count.impl,
           case .literal(let literal) = zero.impl, literal.elements.count == 1,
           case .sql("0", let arguments) = literal.elements[0], arguments.isEmpty
        {
            return (count, zero)
        }
        return nil
    }
    /// `-aggregate`
    public static prefix func - (aggregate: Self) -> Self { aggregate.map { -$0 } }

    /// `lhs AND rhs`
    public static func && (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 && $1 } }
    /// `lhs AND rhs`
    public static func && (lhs: Self, rhs: some SQLExpressible) -> Self {
        lhs.map { [rhs = rhs.sqlExpression] in $0 && rhs }
    }
    /// `lhs OR rhs`
    public static func || (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 || $1 } }
    /// `lhs OR rhs`
    public static func || (lhs: Self, rhs: some SQLExpressible) -> Self {
        lhs.map { [rhs = rhs.sqlExpression] in $0 || rhs }
    }

    /// `lhs = rhs`
    public static func == (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 == $1 } }
    /// `lhs = rhs`, `lhs IS NULL`
    public static func == (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        lhs.map { [rhs = rhs?.sqlExpression] in $0 == rhs }
    }
    /// `lhs <> rhs`
    public static func != (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 != $1 } }
    /// `lhs <> rhs`, `lhs IS NOT NULL`
    public static func != (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        lhs.map { [rhs = rhs?.sqlExpression] in $0 != rhs }
    }
    /// `lhs IS rhs`
    public static func === (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        lhs.map { [rhs = rhs?.sqlExpression] in $0 === rhs }
    }
    /// `lhs IS NOT rhs`
    public static func !== (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        lhs.map { [rhs = rhs?.sqlExpression] in $0 !== rhs }
    }

    /// `lhs < rhs`
    public static func < (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 < $1 } }
    /// `lhs < rhs`
    public static func < (lhs: Self, rhs: some SQLExpressible) -> Self {
        lhs.map { [rhs = rhs.sqlExpression] in $0 < rhs }
    }
    /// `lhs <= rhs`
    public static func <= (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 <= $1 } }
    /// `lhs <= rhs`
    public static func <= (lhs: Self, rhs: some SQLExpressible) -> Self {
        lhs.map { [rhs = rhs.sqlExpression] in $0 <= rhs }
    }
    /// `lhs > rhs`
    public static func > (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 > $1 } }
    /// `lhs > rhs`
    public static func > (lhs: Self, rhs: some SQLExpressible) -> Self {
        lhs.map { [rhs = rhs.sqlExpression] in $0 > rhs }
    }
    /// `lhs >= rhs`
    public static func >= (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 >= $1 } }
    /// `lhs >= rhs`
    public static func >= (lhs: Self, rhs: some SQLExpressible) -> Self {
        lhs.map { [rhs = rhs.sqlExpression] in $0 >= rhs }
    }

    /// `lhs + rhs`
    public static func + (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 + $1 } }
    /// `lhs + rhs`
    public static func + (lhs: Self, rhs: some SQLExpressible) -> Self {
        lhs.map { [rhs = rhs.sqlExpression] in $0 + rhs }
    }
    /// `lhs - rhs`
    public static func - (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 - $1 } }
    /// `lhs - rhs`
    public static func - (lhs: Self, rhs: some SQLExpressible) -> Self {
        lhs.map { [rhs = rhs.sqlExpression] in $0 - rhs }
    }
    /// `lhs * rhs`
    public static func * (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 * $1 } }
    /// `lhs * rhs`
    public static func * (lhs: Self, rhs: some SQLExpressible) -> Self {
        lhs.map { [rhs = rhs.sqlExpression] in $0 * rhs }
    }
    /// `lhs / rhs`
    public static func / (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 / $1 } }
    /// `lhs / rhs`
    public static func / (lhs: Self, rhs: some SQLExpressible) -> Self {
        lhs.map { [rhs = rhs.sqlExpression] in $0 / rhs }
    }

    /// `lhs AND rhs`
    public static func && (lhs: some SQLExpressible, rhs: Self) -> Self {
        rhs.map { [lhs = lhs.sqlExpression] in lhs && $0 }
    }
    /// `lhs OR rhs`
    public static func || (lhs: some SQLExpressible, rhs: Self) -> Self {
        rhs.map { [lhs = lhs.sqlExpression] in lhs || $0 }
    }
    /// `lhs = rhs`
    public static func == (lhs: (any SQLExpressible)?, rhs: Self) -> Self {
        rhs.map { [lhs = lhs?.sqlExpression] in lhs == $0 }
    }
    /// `lhs = rhs`
    public static func == (lhs: Self, rhs: Bool) -> Self {
        // `isEmpty == false` is `!isEmpty`, as GRDB writes it.
        lhs.map { expression in
            if let (count, zero) = emptinessTest(expression) {
                return rhs ? expression : .binary(.greaterThan, count, zero)
            }
            return expression == rhs
        }
    }
    /// `lhs <> rhs`
    public static func != (lhs: (any SQLExpressible)?, rhs: Self) -> Self {
        rhs.map { [lhs = lhs?.sqlExpression] in lhs != $0 }
    }
    /// `lhs <> rhs`
    public static func != (lhs: Self, rhs: Bool) -> Self {
        lhs.map { expression in
            if let (count, zero) = emptinessTest(expression) {
                return rhs ? .binary(.greaterThan, count, zero) : expression
            }
            return expression != rhs
        }
    }
    /// `lhs IS rhs`
    public static func === (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 === $1 } }
    /// `lhs IS rhs`
    public static func === (lhs: (any SQLExpressible)?, rhs: Self) -> Self {
        rhs.map { [lhs = lhs?.sqlExpression] in lhs === $0 }
    }
    /// `lhs IS NOT rhs`
    public static func !== (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 !== $1 } }
    /// `lhs IS NOT rhs`
    public static func !== (lhs: (any SQLExpressible)?, rhs: Self) -> Self {
        rhs.map { [lhs = lhs?.sqlExpression] in lhs !== $0 }
    }
    /// `lhs < rhs`
    public static func < (lhs: some SQLExpressible, rhs: Self) -> Self {
        rhs.map { [lhs = lhs.sqlExpression] in lhs < $0 }
    }
    /// `lhs <= rhs`
    public static func <= (lhs: some SQLExpressible, rhs: Self) -> Self {
        rhs.map { [lhs = lhs.sqlExpression] in lhs <= $0 }
    }
    /// `lhs > rhs`
    public static func > (lhs: some SQLExpressible, rhs: Self) -> Self {
        rhs.map { [lhs = lhs.sqlExpression] in lhs > $0 }
    }
    /// `lhs >= rhs`
    public static func >= (lhs: some SQLExpressible, rhs: Self) -> Self {
        rhs.map { [lhs = lhs.sqlExpression] in lhs >= $0 }
    }
    /// `lhs + rhs`
    public static func + (lhs: some SQLExpressible, rhs: Self) -> Self {
        rhs.map { [lhs = lhs.sqlExpression] in lhs + $0 }
    }
    /// `lhs - rhs`
    public static func - (lhs: some SQLExpressible, rhs: Self) -> Self {
        rhs.map { [lhs = lhs.sqlExpression] in lhs - $0 }
    }
    /// `lhs * rhs`
    public static func * (lhs: some SQLExpressible, rhs: Self) -> Self {
        rhs.map { [lhs = lhs.sqlExpression] in lhs * $0 }
    }
    /// `lhs / rhs`
    public static func / (lhs: some SQLExpressible, rhs: Self) -> Self {
        rhs.map { [lhs = lhs.sqlExpression] in lhs / $0 }
    }

    /// `IFNULL(lhs, rhs)`, which keeps the name of `lhs`:
    /// `Author.books.sum(Column("pages")) ?? 0`.
    public static func ?? (lhs: Self, rhs: some SQLExpressible) -> Self {
        var result = lhs.map { [rhs = rhs.sqlExpression] in $0 ?? rhs }
        result.key = lhs.key
        return result
    }
}

/// `ABS(aggregate)`
public func abs<RowDecoder>(_ aggregate: AssociationAggregate<RowDecoder>) -> AssociationAggregate<RowDecoder> {
    aggregate.map { abs($0) }
}

/// `CAST(aggregate AS storageClass)`, under the key of the aggregate.
public func cast<RowDecoder>(
    _ aggregate: AssociationAggregate<RowDecoder>,
    as storageClass: Database.StorageClass) -> AssociationAggregate<RowDecoder>
{
    var result = aggregate.map { cast($0, as: storageClass) }
    result.key = aggregate.key
    return result
}

/// `LENGTH(aggregate)`
public func length<RowDecoder>(_ aggregate: AssociationAggregate<RowDecoder>) -> AssociationAggregate<RowDecoder> {
    aggregate.map { length($0) }
}
