/// The shape of a SELECT request: everything that its SQL depends on, but
/// not the values it binds. Two requests of the same shape have the same
/// SQL, on the same schema, and differ only in their arguments:
/// `Player.filter(key: 1)` and `Player.filter(key: 2)` share a shape.
///
/// The key spells the request's table, clauses and expressions, names
/// length-prefixed so that no two shapes spell the same key. `values` are
/// the bound values, in the order in which the SQL binds them.
struct RequestShape {
    var key: String
    var values: [DatabaseValue]
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
        if isDistinct { writer.key += "D" }

        // The clauses in the order of the SQL, which is the order of the
        // bound values.
        let selection = try self.selection.resolve(db)
        if selection.isEmpty { return nil }
        writer.count("S", selection.count)
        for selection in selection {
            guard writer.selection(selection) else { return nil }
        }
        if let filter = try filter?.resolve(db) {
            writer.key += "W"
            guard writer.expression(filter) else { return nil }
        }
        let group = try self.group?.resolve(db) ?? []
        writer.count("G", group.count)
        for expression in group {
            guard writer.expression(expression) else { return nil }
        }
        if let having = try having?.resolve(db) {
            writer.key += "H"
            guard writer.expression(having) else { return nil }
        }
        let orderings = try ordering.resolve(db)
        writer.count("O", orderings.count)
        for ordering in orderings {
            guard writer.ordering(ordering) else { return nil }
        }
        if let limit {
            writer.key += limit.offset == nil ? "L" : "LO"
            writer.values.append(limit.limit.databaseValue)
            if let offset = limit.offset { writer.values.append(offset.databaseValue) }
        } else if forSingleResult {
            // `LIMIT 1` unless the filter identifies a row: the filter's
            // shape and the schema say so.
            writer.key += "1"
        }
        return RequestShape(key: writer.key, values: writer.values)
    }
}

/// Spells a shape. Its methods return false for what it can't spell.
private struct ShapeWriter {
    var key = ""
    var values: [DatabaseValue] = []

    init() {
        key.reserveCapacity(64)
    }

    /// A name, length-prefixed.
    mutating func name(_ name: String) {
        key += String(name.utf8.count)
        key += ":"
        key += name
    }

    /// A code and a count of the items that follow.
    mutating func count(_ code: String, _ count: Int) {
        key += code
        key += String(count)
        key += ";"
    }

    mutating func selection(_ selection: SQLSelection) -> Bool {
        switch selection.impl {
        case .allColumns:
            key += "*"
            return true
        case .expression(let expression):
            key += "e"
            return self.expression(expression)
        case let .aliased(expression, name: alias):
            key += "a"
            name(alias)
            return self.expression(expression)
        case .qualifiedAllColumns, .allColumnsExcluding, .qualifiedAllColumnsExcluding, .literal:
            return false
        }
    }

    mutating func ordering(_ ordering: SQLOrdering) -> Bool {
        switch ordering.impl {
        case .expression(let expression):
            key += "o"
            return self.expression(expression)
        case .asc(let expression):
            key += "oa"
            return self.expression(expression)
        case .desc(let expression):
            key += "od"
            return self.expression(expression)
        case .ascNullsLast(let expression):
            key += "oA"
            return self.expression(expression)
        case .descNullsFirst(let expression):
            key += "oD"
            return self.expression(expression)
        case .literal:
            return false
        }
    }

    /// An expression, and its values in the order of its SQL (see
    /// `SQLExpression.sql(_:wrappedInParenthesis:)`).
    mutating func expression(_ expression: SQLExpression) -> Bool {
        if expression.interpretsAsJSON { key += "j" }
        switch expression.impl {
        case .value(let dbValue):
            key += "?"
            values.append(dbValue)
            return true
        case .column(let column):
            key += "c"
            name(column)
            return true
        case let .compare(op, lhs, rhs) where (op == .is || op == .isNot) && rhs.isNullValue:
            // `IS NULL`: no value bound.
            key += "N"
            name(op.rawValue)
            return self.expression(lhs)
        case let .compare(op, lhs, rhs):
            key += "="
            name(op.rawValue)
            return self.expression(lhs) && self.expression(rhs)
        case let .binary(op, lhs, rhs):
            key += "b"
            name(op.rawValue)
            return self.expression(lhs) && self.expression(rhs)
        case let .associative(op, operands):
            key += "A"
            name(op.sql)
            return list(operands)
        case let .in(expression, .array(elements), isNegated):
            key += isNegated ? "I!" : "I"
            return self.expression(expression) && list(elements)
        case let .between(expression, lowerBound, upperBound, isNegated):
            key += isNegated ? "B!" : "B"
            return self.expression(expression) && self.expression(lowerBound) && self.expression(upperBound)
        case let .like(lhs, pattern, escape, isNegated):
            key += isNegated ? "l!" : "l"
            key += escape == nil ? "-" : "e"
            return self.expression(lhs) && self.expression(pattern) && (escape.map { self.expression($0) } ?? true)
        case let .unary(op, expression):
            key += "u"
            name(op.rawValue)
            return self.expression(expression)
        case .not(let expression):
            key += "n"
            return self.expression(expression)
        case let .collated(expression, collation):
            key += "k"
            name(collation.rawValue)
            return self.expression(expression)
        case let .function(function, arguments):
            key += "f"
            name(function)
            return list(arguments)
        case let .aggregate(function, arguments, isDistinct, nil, nil):
            key += isDistinct ? "g!" : "g"
            name(function)
            return list(arguments)
        case .countAll:
            key += "#"
            return true
        case let .cast(expression, storageClass):
            key += "C"
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
