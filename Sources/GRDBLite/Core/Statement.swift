import CSQLite

/// A prepared statement.
///
/// ```swift
/// let statement = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
/// try statement.execute(arguments: ["Arthur"])
/// try statement.execute(arguments: ["Barbara"])
///
/// let select = try db.cachedStatement(sql: "SELECT * FROM player WHERE name = ?")
/// let rows = try Row.fetchAll(select, arguments: ["Arthur"])
/// ```
///
/// A statement belongs to its connection: use it only inside the database
/// access that created it, or a later one on the same queue.
public final class Statement {
    /// The raw SQLite statement, for the SQLite C API. Don't finalize it.
    public let sqliteStatement: SQLiteStatement
    /// The connection that prepared the statement.
    @usableFromInline unowned let database: Database
    /// The SQL of the statement, without surrounding white space and semicolons.
    public let sql: String
    /// The number of columns of the rows the statement returns.
    public let columnCount: Int
    /// For each parameter, its name without prefix, or nil for `?`.
    @usableFromInline let argumentNames: [String?]
    /// What the statement does, from the authorizer.
    let info: StatementInfo
    /// Column name lookups of the current row, remembered across rows.
    @usableFromInline let columnLookup: UnsafeMutablePointer<ColumnLookup>

    private var _arguments = StatementArguments()
    /// Whether the bound values match `arguments` (false before any
    /// arguments were set, so that a statement with parameters can't run
    /// with unset values).
    private var argumentsAreBound: Bool

    /// The column names, left to right.
    public private(set) lazy var columnNames: [String] = (0..<CInt(columnCount)).map {
        columnName(sqliteStatement, $0)
    }

    init(database: Database, sqliteStatement: SQLiteStatement, info: StatementInfo) {
        self.database = database
        self.sqliteStatement = sqliteStatement
        self.info = info
        self.sql = String(cString: sqlite3_sql(sqliteStatement)).trimmedSQLStatement
        self.columnCount = Int(sqlite3_column_count(sqliteStatement))
        let parameterCount = sqlite3_bind_parameter_count(sqliteStatement)
        self.argumentNames = (0..<parameterCount).map { index in
            // `:name`, `$name`, `@name` are named; `?` and `?NNN` positional.
            guard let cName = sqlite3_bind_parameter_name(sqliteStatement, index + 1) else { return nil }
            let name = String(cString: cName)
            return name.hasPrefix("?") ? nil : String(name.dropFirst())
        }
        self.argumentsAreBound = parameterCount == 0
        self.columnLookup = .allocate(capacity: 1)
        self.columnLookup.initialize(to: ColumnLookup(capacity: max(columnCount, 4)))
    }

    deinit {
        columnLookup.pointee.destroy()
        columnLookup.deinitialize(count: 1)
        columnLookup.deallocate()
        sqlite3_finalize(sqliteStatement)
    }

    /// Whether the statement makes no direct change to the database file.
    public var isReadonly: Bool {
        sqlite3_stmt_readonly(sqliteStatement) != 0
    }

    /// The index of the leftmost column named `name` (case-insensitive).
    public func index(ofColumn name: String) -> Int? {
        let name = CaseInsensitiveIdentifier(name)
        return columnNames.firstIndex { name.matches($0) }
    }

    // MARK: - Arguments

    /// The statement arguments. Setting arguments that don't fit the
    /// statement is a programmer error: prefer ``setArguments(_:)``, which
    /// throws.
    public var arguments: StatementArguments {
        get { _arguments }
        set {
            do {
                try setArguments(newValue)
            } catch {
                fatalError("\(error)")
            }
        }
    }

    /// Throws a ``DatabaseError`` if `arguments` don't provide exactly the
    /// values the statement expects.
    public func validateArguments(_ arguments: StatementArguments) throws {
        var arguments = arguments
        _ = try arguments.extractBindings(forStatement: self, allowingRemainingValues: false)
    }

    /// Validates and binds arguments. On failure, the statement keeps its
    /// previous arguments, and binds them again before it next runs.
    public func setArguments(_ arguments: StatementArguments) throws {
        sqlite3_reset(sqliteStatement)
        sqlite3_clear_bindings(sqliteStatement)
        do {
            try arguments.bind(to: self)
        } catch {
            sqlite3_clear_bindings(sqliteStatement)
            argumentsAreBound = argumentNames.isEmpty
            throw error
        }
        _arguments = arguments
        argumentsAreBound = true
    }

    /// Binds arguments without validation: the caller guarantees they fit.
    public func setUncheckedArguments(_ arguments: StatementArguments) {
        var consumable = arguments
        do {
            let bindings = try consumable.extractBindings(forStatement: self, allowingRemainingValues: true)
            try bind(bindings, arguments: arguments)
        } catch {
            fatalError("Arguments \(arguments) don't fit statement `\(sql)`: \(error)")
        }
    }

    /// Binds values extracted by `extractBindings`.
    func bind(_ bindings: [DatabaseValue], arguments: StatementArguments) throws {
        sqlite3_reset(sqliteStatement)
        sqlite3_clear_bindings(sqliteStatement)
        for (index, value) in bindings.enumerated() {
            let code = value.bind(to: sqliteStatement, at: CInt(index + 1))
            if code != SQLITE_OK { throw bindingFailure(code, arguments: arguments) }
        }
        _arguments = arguments
        argumentsAreBound = true
    }

    /// The error of a value that SQLite could not bind: out of memory
    /// while copying it (`SQLITE_NOMEM`), or over SQLite's length limit
    /// (`SQLITE_TOOBIG`). Leaves the statement without bound values, so
    /// that it can't run with some of them.
    @usableFromInline
    func bindingFailure(_ code: CInt, arguments: StatementArguments?) -> DatabaseError {
        let message = database.lastErrorMessage
        sqlite3_clear_bindings(sqliteStatement)
        argumentsAreBound = argumentNames.isEmpty
        return DatabaseError(resultCode: code, message: message, sql: sql, arguments: arguments)
    }

    /// Makes sure parameters have values before the statement runs.
    func prepareForExecution() throws {
        sqlite3_reset(sqliteStatement)
        if !argumentsAreBound {
            try setArguments(_arguments)
        }
    }

    // MARK: - Execution

    /// Executes the statement, with `arguments` if given, else with the
    /// arguments set before. Rows the statement returns are ignored.
    public func execute(arguments: StatementArguments? = nil) throws {
        if let arguments {
            try setArguments(arguments)
        } else {
            try prepareForExecution()
        }
        try database.executeToCompletion(self)
    }

    /// Executes the statement with positional values bound directly, with
    /// no intermediate array: the fastest way to run an INSERT in a loop.
    ///
    /// ```swift
    /// let statement = try db.cachedStatement(sql: "INSERT INTO point (x, y) VALUES (?, ?)")
    /// for (x, y) in points {
    ///     try statement.execute(values: x, y)
    /// }
    /// ```
    ///
    /// The number of values must be the number of parameters.
    @inlinable
    public func execute<each Value: DatabaseValueConvertible>(values: repeat each Value) throws {
        sqlite3_reset(sqliteStatement)
        var count: CInt = 0
        var code = SQLITE_OK
        for value in repeat each values {
            count += 1
            // Extra values are reported by executeBoundValues.
            if code == SQLITE_OK && count <= argumentNames.count {
                code = value.bind(to: sqliteStatement, at: count)
            }
        }
        do {
            try executeBoundValues(count: Int(count), bindingResult: code)
        } catch let error as DatabaseError {
            // Arguments are only built for the error message.
            throw DatabaseError(
                resultCode: error.extendedResultCode, message: error.message, sql: error.sql,
                arguments: StatementArguments(databaseValues(repeat each values)))
        }
    }

    /// Executes the statement with named values bound directly, with no
    /// intermediate dictionary: the fastest way to run a statement with
    /// named parameters in a loop.
    ///
    /// ```swift
    /// let statement = try db.cachedStatement(sql: "INSERT INTO point (x, y) VALUES (:x, :y)")
    /// for (x, y) in points {
    ///     try statement.execute(named: ("x", x), ("y", y))
    /// }
    /// ```
    ///
    /// Names are given without their prefix (`:`, `$` or `@`). Each
    /// parameter must get exactly one value.
    @inlinable
    public func execute<each Value: DatabaseValueConvertible>(named values: repeat (String, each Value)) throws {
        sqlite3_reset(sqliteStatement)
        var count = 0
        var code = SQLITE_OK
        do {
            for pair in repeat each values {
                let index = try parameterIndex(named: pair.0, hint: count)
                if code == SQLITE_OK {
                    code = pair.1.bind(to: sqliteStatement, at: index)
                }
                count += 1
            }
            try executeBoundValues(count: count, bindingResult: code)
        } catch let error as DatabaseError {
            // Arguments are only built for the error message.
            throw DatabaseError(
                resultCode: error.extendedResultCode, message: error.message, sql: error.sql,
                arguments: StatementArguments(namedDatabaseValues(repeat each values)))
        }
    }

    /// The 1-based index of the parameter named `name`. The parameter at
    /// `hint` is tried first: values usually come in parameter order, and
    /// the same literals compare by their bits.
    @usableFromInline
    func parameterIndex(named name: String, hint: Int) throws -> CInt {
        if hint < argumentNames.count, let candidate = argumentNames[hint], candidate == name {
            return CInt(hint + 1)
        }
        if let index = argumentNames.firstIndex(where: { $0 == name }) {
            return CInt(index + 1)
        }
        sqlite3_clear_bindings(sqliteStatement)
        argumentsAreBound = argumentNames.isEmpty
        throw DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "no parameter named \(String(reflecting: name)) in statement",
            sql: sql)
    }

    /// Runs the statement with `count` values bound by `execute(values:)`;
    /// `bindingResult` is the first binding error, if any.
    @usableFromInline
    func executeBoundValues(count: Int, bindingResult: CInt) throws {
        if count != argumentNames.count {
            sqlite3_clear_bindings(sqliteStatement)
            argumentsAreBound = argumentNames.isEmpty
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "wrong number of statement arguments: \(count) given, \(argumentNames.count) expected",
                sql: sql)
        }
        if bindingResult != SQLITE_OK {
            throw bindingFailure(bindingResult, arguments: nil)
        }
        if !_arguments.isEmpty { _arguments = StatementArguments() }
        argumentsAreBound = true
        try database.executeToCompletion(self)
    }

}

/// The name of a column; empty if SQLite has none (out of memory, or a
/// statement that SQLite recompiled with fewer columns after a schema
/// change).
func columnName(_ sqliteStatement: SQLiteStatement, _ index: CInt) -> String {
    sqlite3_column_name(sqliteStatement, index).map { String(cString: $0) } ?? ""
}

/// The named database values of a parameter pack.
@usableFromInline
func namedDatabaseValues<each Value: DatabaseValueConvertible>(
    _ values: repeat (String, each Value)) -> [(String, (any DatabaseValueConvertible)?)]
{
    var result: [(String, (any DatabaseValueConvertible)?)] = []
    for pair in repeat each values {
        result.append((pair.0, pair.1.databaseValue))
    }
    return result
}

/// The database values of a parameter pack.
@usableFromInline
func databaseValues<each Value: DatabaseValueConvertible>(_ values: repeat each Value) -> [DatabaseValue] {
    var result: [DatabaseValue] = []
    for value in repeat each values {
        result.append(value.databaseValue)
    }
    return result
}

extension Statement: CustomStringConvertible {
    public var description: String { sql }
}

extension String {
    /// Without leading and trailing white space and semicolons.
    var trimmedSQLStatement: String {
        let utf8 = self.utf8
        let isTrimmed = { (byte: UInt8) in byte == 0x3B || byte == 0x20 || (0x09...0x0D).contains(byte) }
        guard let first = utf8.firstIndex(where: { !isTrimmed($0) }),
              let last = utf8.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(self[first...last])
    }
}
