/// The shape of a SELECT request: everything that its SQL depends on, but
/// not the values it binds. Two requests of the same shape have the same
/// SQL, on the same schema, and differ only in their arguments:
/// `Player.filter(key: 1)` and `Player.filter(key: 2)` share a shape.
///
/// The key spells the request's table, clauses and expressions, names and
/// counts length-prefixed so that no two shapes spell the same key.
/// `values` are the bound values, in the order in which the SQL binds them.
struct RequestShape {
    var key: RequestShapeKey
    var values: [DatabaseValue]

    /// The bytes that spell a shape.
    struct RequestShapeKey: Hashable {
        var bytes: [UInt8]

        static func == (lhs: RequestShapeKey, rhs: RequestShapeKey) -> Bool {
            lhs.bytes == rhs.bytes
        }

        func hash(into hasher: inout Hasher) {
            // Unsafe: the buffer is only read during the call.
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}

extension SQLRelation {
    /// The shape of the relation's SELECT request, or nil when the request
    /// has parts whose SQL the shape does not spell (joins, common table
    /// expressions, aliases, raw SQL, subqueries): those requests generate
    /// their SQL each time.
    func shape(_ db: Database, forSingleResult: Bool) throws -> RequestShape? {
        guard source.alias == nil, children.isEmpty, ctes.isEmpty else { return nil }
        var writer = ShapeWriter()
        writer.name(source.tableName)
        if isDistinct { writer.code("D") }

        // The clauses in the order of the SQL, which is the order of the
        // bound values.
        let selection = try self.selection.resolve(db)
        if selection.isEmpty { return nil }
        writer.count("S", selection.count)
        for selection in selection {
            guard writer.selection(selection) else { return nil }
        }
        if let filter = try filter?.resolve(db) {
            writer.code("W")
            guard writer.expression(filter) else { return nil }
        }
        let group = try self.group?.resolve(db) ?? []
        writer.count("G", group.count)
        for expression in group {
            guard writer.expression(expression) else { return nil }
        }
        if let having = try having?.resolve(db) {
            writer.code("H")
            guard writer.expression(having) else { return nil }
        }
        let orderings = try ordering.resolve(db)
        writer.count("O", orderings.count)
        for ordering in orderings {
            guard writer.ordering(ordering) else { return nil }
        }
        if let limit {
            writer.code(limit.offset == nil ? "L" : "M")
            writer.values.append(limit.limit.databaseValue)
            if let offset = limit.offset { writer.values.append(offset.databaseValue) }
        } else if forSingleResult {
            // `LIMIT 1` unless the filter identifies a row: the filter's
            // shape and the schema say so.
            writer.code("1")
        }
        return RequestShape(key: RequestShape.RequestShapeKey(bytes: writer.key), values: writer.values)
    }
}

/// Spells a shape. Its methods return false for what it can't spell.
///
/// Each code is one ASCII byte, distinct from the others that can come at
/// its place, followed by what it needs (names and counts, then
/// expressions).
private struct ShapeWriter {
    var key: [UInt8] = []
    var values: [DatabaseValue] = []

    init() {
        key.reserveCapacity(64)
    }

    /// The code of a clause or an expression: ASCII.
    mutating func code(_ code: StaticString) {
        code.withUTF8Buffer { key.append(contentsOf: $0) }
    }

    /// A name, length-prefixed.
    mutating func name(_ name: String) {
        number(name.utf8.count)
        key.append(contentsOf: name.utf8)
    }

    /// A code and a count of the items that follow.
    mutating func count(_ code: StaticString, _ count: Int) {
        self.code(code)
        number(count)
    }

    /// A number: a byte below 255, or 255 and the number's digits up to
    /// a semicolon.
    private mutating func number(_ number: Int) {
        if number >= 0 && number < 255 {
            key.append(UInt8(number))
        } else {
            key.append(255)
            key.append(contentsOf: String(number).utf8)
            key.append(UInt8(ascii: ";"))
        }
    }

    mutating func selection(_ selection: SQLSelection) -> Bool {
        switch selection.impl {
        case .allColumns:
            code("*")
            return true
        case .expression(let expression):
            code("e")
            return self.expression(expression)
        case let .aliased(expression, name: alias):
            code("a")
            name(alias)
            return self.expression(expression)
        case .qualifiedAllColumns, .allColumnsExcluding, .qualifiedAllColumnsExcluding, .literal:
            return false
        }
    }

    mutating func ordering(_ ordering: SQLOrdering) -> Bool {
        switch ordering.impl {
        case .expression(let expression):
            code("o")
            return self.expression(expression)
        case .asc(let expression):
            code("p")
            return self.expression(expression)
        case .desc(let expression):
            code("q")
            return self.expression(expression)
        case .ascNullsLast(let expression):
            code("r")
            return self.expression(expression)
        case .descNullsFirst(let expression):
            code("s")
            return self.expression(expression)
        case .literal:
            return false
        }
    }

    /// An expression, and its values in the order of its SQL (see
    /// `SQLExpression.sql(_:wrappedInParenthesis:)`).
    mutating func expression(_ expression: SQLExpression) -> Bool {
        if expression.interpretsAsJSON { code("j") }
        switch expression.impl {
        case .value(let dbValue):
            code("?")
            values.append(dbValue)
            return true
        case .column(let column):
            code("c")
            name(column)
            return true
        case let .compare(op, lhs, rhs) where (op == .is || op == .isNot) && rhs.isNullValue:
            // `IS NULL`: no value bound.
            code("N")
            name(op.rawValue)
            return self.expression(lhs)
        case let .compare(op, lhs, rhs):
            code("=")
            name(op.rawValue)
            return self.expression(lhs) && self.expression(rhs)
        case let .binary(op, lhs, rhs):
            code("b")
            name(op.rawValue)
            return self.expression(lhs) && self.expression(rhs)
        case let .associative(op, operands):
            code("A")
            name(op.sql)
            return list(operands)
        case let .in(expression, .array(elements), isNegated):
            code(isNegated ? "i" : "I")
            return self.expression(expression) && list(elements)
        case let .between(expression, lowerBound, upperBound, isNegated):
            code(isNegated ? "x" : "B")
            return self.expression(expression) && self.expression(lowerBound) && self.expression(upperBound)
        case let .like(lhs, pattern, escape, isNegated):
            code(isNegated ? "m" : "l")
            code(escape == nil ? "-" : "e")
            return self.expression(lhs) && self.expression(pattern) && (escape.map { self.expression($0) } ?? true)
        case let .unary(op, expression):
            code("u")
            name(op.rawValue)
            return self.expression(expression)
        case .not(let expression):
            code("n")
            return self.expression(expression)
        case let .collated(expression, collation):
            code("k")
            name(collation.rawValue)
            return self.expression(expression)
        case let .function(function, arguments):
            code("f")
            name(function)
            return list(arguments)
        case let .aggregate(function, arguments, isDistinct, nil, nil):
            code(isDistinct ? "h" : "g")
            name(function)
            return list(arguments)
        case .countAll:
            code("#")
            return true
        case let .cast(expression, storageClass):
            code("C")
            name(storageClass.rawValue)
            return self.expression(expression)
        case .qualifiedColumn, .literal, .subquery, .exists, .in, .aggregate, .resolved, .tableMatch:
            // Qualified columns refer to aliases, which the shape doesn't
            // spell; the others hold SQL or values that it doesn't see.
            return false
        }
    }

    /// A count of expressions, then the expressions.
    private mutating func list(_ expressions: [SQLExpression]) -> Bool {
        count("(", expressions.count)
        for expression in expressions {
            guard self.expression(expression) else { return false }
        }
        return true
    }
}
