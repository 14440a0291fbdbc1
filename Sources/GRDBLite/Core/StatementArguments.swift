import CSQLite

/// The values bound to the parameters of a statement: positional (`?`)
/// and named (`:name`, `$name`, `@name`).
///
/// ```swift
/// try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)",
///                arguments: ["Arthur", 1000])
/// try db.execute(sql: "INSERT INTO player (name, score) VALUES (:name, :score)",
///                arguments: ["name": "Arthur", "score": 1000])
/// ```
///
/// A named parameter takes its value from the named values, or else from
/// the next positional value. Missing values and leftover positional
/// values are errors: nothing is silently bound to NULL.
public struct StatementArguments: Hashable, Sendable {
    /// Positional values, in order.
    var values: [DatabaseValue]
    /// Named values, by name without the `:`, `$` or `@` prefix.
    var namedValues: [String: DatabaseValue]

    /// Whether there is no value at all.
    public var isEmpty: Bool { values.isEmpty && namedValues.isEmpty }

    /// No arguments.
    public init() {
        values = []
        namedValues = [:]
    }

    /// Positional arguments.
    public init(_ values: some Sequence<(any DatabaseValueConvertible)?>) {
        self.values = values.map { $0?.databaseValue ?? .null }
        self.namedValues = [:]
    }

    /// Positional arguments.
    public init(_ values: some Sequence<some DatabaseValueConvertible>) {
        self.values = values.map(\.databaseValue)
        self.namedValues = [:]
    }

    /// Positional arguments, or nil if a value is not
    /// ``DatabaseValueConvertible``.
    public init?(_ array: [Any]) {
        var values: [DatabaseValue] = []
        values.reserveCapacity(array.count)
        for element in array {
            guard let dbValue = DatabaseValue(value: element) else { return nil }
            values.append(dbValue)
        }
        self.values = values
        self.namedValues = [:]
    }

    /// Named arguments.
    public init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        self.values = []
        self.namedValues = dictionary.mapValues { $0?.databaseValue ?? .null }
    }

    /// Named arguments; the last value of a repeated name wins.
    public init(_ sequence: some Sequence<(String, (any DatabaseValueConvertible)?)>) {
        self.values = []
        self.namedValues = Dictionary(sequence.map { ($0.0, $0.1?.databaseValue ?? .null) }, uniquingKeysWith: { $1 })
    }

    /// Named arguments, or nil if a key is not a String or a value is not
    /// ``DatabaseValueConvertible``.
    public init?(_ dictionary: [AnyHashable: Any]) {
        var namedValues: [String: DatabaseValue] = [:]
        for (key, value) in dictionary {
            guard let name = key.base as? String, let dbValue = DatabaseValue(value: value) else { return nil }
            namedValues[name] = dbValue
        }
        self.values = []
        self.namedValues = namedValues
    }

    /// Appends positional values and merges named values. Returns the named
    /// values that were replaced.
    @discardableResult
    public mutating func append(contentsOf arguments: StatementArguments) -> [String: DatabaseValue] {
        var replaced: [String: DatabaseValue] = [:]
        values.append(contentsOf: arguments.values)
        for (name, value) in arguments.namedValues {
            if let old = namedValues.updateValue(value, forKey: name) {
                replaced[name] = old
            }
        }
        return replaced
    }

    /// Concatenates positional values and merges named values. A name given
    /// on both sides is a programmer error: use `&+` to let the right win.
    public static func + (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        let replaced = result.append(contentsOf: rhs)
        precondition(replaced.isEmpty, "Named arguments given twice: \(replaced.keys.sorted())")
        return result
    }

    /// Concatenates positional values and merges named values; the right
    /// side wins for a name given on both sides.
    public static func &+ (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        result.append(contentsOf: rhs)
        return result
    }

    /// Appends `rhs` to `lhs` as ``+(_:_:)`` does.
    public static func += (lhs: inout StatementArguments, rhs: StatementArguments) {
        lhs = lhs + rhs
    }

    /// Binds the values for the parameters of `statement` (after a reset),
    /// as `extractBindings` would extract them, without intermediate array.
    func bind(to statement: Statement) throws {
        var consumed = 0
        let sqliteStatement = statement.sqliteStatement
        for (offset, name) in statement.argumentNames.enumerated() {
            let value: DatabaseValue
            if let name, let named = namedValues[name] {
                value = named
            } else if consumed < values.count {
                value = values[consumed]
                consumed += 1
            } else {
                // Same errors as extractBindings
                var copy = self
                _ = try copy.extractBindings(forStatement: statement, allowingRemainingValues: false)
                return
            }
            let code = value.bind(to: sqliteStatement, at: CInt(offset + 1))
            if code != SQLITE_OK { throw statement.bindingFailure(code, arguments: self) }
        }
        if consumed < values.count {
            var copy = self
            _ = try copy.extractBindings(forStatement: statement, allowingRemainingValues: false)
        }
    }

    /// The values for the parameters of `statement`, consuming positional
    /// values in order.
    ///
    /// - parameter allowingRemainingValues: Whether positional values may
    ///   be left for the next statements of a multi-statement SQL string.
    mutating func extractBindings(
        forStatement statement: Statement,
        allowingRemainingValues: Bool) throws -> [DatabaseValue]
    {
        var consumed = 0
        var bindings: [DatabaseValue] = []
        bindings.reserveCapacity(statement.argumentNames.count)
        for name in statement.argumentNames {
            if let name, let value = namedValues[name] {
                bindings.append(value)
            } else if consumed < values.count {
                bindings.append(values[consumed])
                consumed += 1
            } else if let name {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "missing statement argument: \(name)",
                    sql: statement.sql, arguments: self,
                    publicStatementArguments: statement.database.configuration.publicStatementArguments)
            } else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "wrong number of statement arguments: \(values.count)",
                    sql: statement.sql, arguments: self,
                    publicStatementArguments: statement.database.configuration.publicStatementArguments)
            }
        }
        if !allowingRemainingValues && consumed < values.count {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "wrong number of statement arguments: \(values.count)",
                sql: statement.sql, arguments: self,
                publicStatementArguments: statement.database.configuration.publicStatementArguments)
        }
        values.removeFirst(consumed)
        return bindings
    }
}

extension StatementArguments: ExpressibleByArrayLiteral {
    /// Positional arguments: `[1, "Arthur", nil]`.
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        self.init(elements)
    }
}

extension StatementArguments: ExpressibleByDictionaryLiteral {
    /// Named arguments: `["name": "Arthur", "score": nil]`.
    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        var namedValues = [String: DatabaseValue](minimumCapacity: elements.count)
        for (name, value) in elements {
            namedValues[name] = value?.databaseValue ?? .null
        }
        self.values = []
        self.namedValues = namedValues
    }
}

extension StatementArguments: CustomStringConvertible {
    /// `["name": "Arthur", 1, NULL]`: named values first, sorted by name.
    public var description: String {
        let named = namedValues.sorted { $0.key < $1.key }.map { "\(String(reflecting: $0.key)): \($0.value)" }
        return "[" + (named + values.map(\.description)).joined(separator: ", ") + "]"
    }
}
