import CSQLite
import Synchronization

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
    /// The count of the connection's live statements, which this one is in.
    private let liveStatements: LiveStatementCount
    /// The SQL of the statement, without surrounding white space and semicolons.
    public let sql: String
    /// The number of columns of the rows the statement returns.
    public let columnCount: Int
    /// For each parameter, its name without prefix, or nil for `?`.
    @usableFromInline let argumentNames: [String?]
    /// What the statement does, from the authorizer.
    let info: StatementInfo
    /// For `execute(named:)`: one bit per parameter, all set, when the
    /// statement has at most 64 parameters and no name twice (`:a` and
    /// `$a`); nil otherwise, for the general path.
    @usableFromInline let namedParametersMask: UInt64?
    /// Column name lookups of the current row, remembered across rows.
    // Owned: allocated in init, freed in deinit; manual storage spares the
    // hot path a class's exclusivity checks and reference counting.
    @usableFromInline let columnLookup: UnsafeMutablePointer<ColumnLookup>

    private var _arguments = StatementArguments()
    /// Whether the bound values match `arguments` (false before any
    /// arguments were set, so that a statement with parameters can't run
    /// with unset values).
    private var argumentsAreBound: Bool

    /// The columns the statement reads, as the authorizer reports them when
    /// the SQL compiles again; nil if it doesn't. Computed on demand, for
    /// the observation layer, so that ordinary compilations don't pay.
    lazy var selectedColumns: [StatementAuthorizer.SelectedColumn]? = try? database.authorizer.selectedColumns {
        _ = try database.makeStatement(sql: sql, persistent: false)
    }

    /// What the observation layer derives from `selectedColumns` (the
    /// region the statement reads), kept with them: a value observation
    /// asks for it after each of its fetches.
    var selectedColumnsDerivation: AnyObject?

    /// Set by the request that made the statement, when it knows better
    /// than the authorizer what the statement reads. The statement cache
    /// clears it when it hands the statement out again.
    var selectionRefinement: (any StatementSelectionRefinement)?

    /// The column names, left to right.
    public var columnNames: [String] {
        if let storedColumnNames { return storedColumnNames }
        let names = (0..<CInt(columnCount)).map { GRDBLite.columnName(sqliteStatement, $0) }
        storedColumnNames = names
        return names
    }

    /// The column names, read on first use. Unchecked exclusivity: a
    /// statement is used by one thread at a time, and the names are read
    /// for decoded values (``columnName(atUncheckedIndex:)``).
    @exclusivity(unchecked) private var storedColumnNames: [String]?

    /// The name of column `index`, from ``columnNames``, without a copy of
    /// the array.
    func columnName(atUncheckedIndex index: Int) -> String {
        if let storedColumnNames { return storedColumnNames[index] }
        return columnNames[index]
    }

    init(database: Database, sqliteStatement: SQLiteStatement, info: StatementInfo) {
        self.database = database
        self.liveStatements = database.liveStatements
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
        self.namedParametersMask = allParametersMask(argumentNames)
        self.columnLookup = .allocate(capacity: 1)
        self.columnLookup.initialize(to: ColumnLookup(capacity: max(columnCount, 4)))
        liveStatements.value.add(1, ordering: .relaxed)
    }

    deinit {
        columnLookup.pointee.destroy()
        columnLookup.deinitialize(count: 1)
        columnLookup.deallocate()
        sqlite3_finalize(sqliteStatement)
        liveStatements.value.subtract(1, ordering: .relaxed)
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
    ///
    /// A value SQLite can't bind (out of memory, or over its length limit)
    /// is no programmer error: the setter keeps the arguments, and the
    /// statement binds them again before it next runs, which throws if
    /// SQLite still can't. (GRDB traps.)
    public var arguments: StatementArguments {
        get { _arguments }
        set {
            do {
                try setArguments(newValue)
            } catch {
                do {
                    try validateArguments(newValue)
                } catch {
                    fatalError("\(error)")
                }
                // Not bound: `prepareForExecution` binds them.
                _arguments = newValue
                argumentsAreBound = false
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
        return DatabaseError(
            resultCode: code, message: message, sql: sql, arguments: arguments,
            publicStatementArguments: database.configuration.publicStatementArguments)
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
        try prepareToRun(arguments: arguments)
        try database.executeToCompletion(self)
    }

    /// Binds `arguments`, or checks that the parameters have values.
    func prepareToRun(arguments: StatementArguments?) throws {
        if let arguments {
            try setArguments(arguments)
        } else {
            try prepareForExecution()
        }
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
    @_spi(GRDBLite)
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
            throw error.with(arguments: StatementArguments(databaseValues(repeat each values)))
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
    /// parameter must get exactly one value: a missing, repeated or
    /// unknown name throws a ``DatabaseError`` (`SQLITE_MISUSE`) that
    /// names it, and the statement does not run.
    ///
    /// Calls with 1 to 16 values pick the fixed-arity overloads of
    /// `Statement+NamedValues.swift`, which are faster; this variadic form
    /// serves the other counts.
    @inlinable
    @_spi(GRDBLite)
    public func execute<each Value: DatabaseValueConvertible>(named values: repeat (String, each Value)) throws {
        try executeNamed(
            { binding in
                // Destructured: cheaper than projecting a tuple of the pack.
                for (name, value) in repeat each values {
                    try binding.bind(name, value)
                }
            },
            arguments: { namedDatabaseValues(repeat each values) })
    }

    /// Runs the statement once `bindValues` has bound each named value,
    /// checking that every parameter got exactly one.
    /// `arguments` builds the values again, for the general path and for
    /// error messages.
    @inlinable
    func executeNamed(
        _ bindValues: (inout NamedValueBinding) throws -> Void,
        arguments: () -> [(String, (any DatabaseValueConvertible)?)]) throws
    {
        guard let allParameters = namedParametersMask else {
            return try execute(namedValues: arguments())
        }
        sqlite3_reset(sqliteStatement)
        var binding = NamedValueBinding(statement: self)
        do {
            try bindValues(&binding)
            if binding.bound != allParameters { try rejectNamedValues(bound: binding.bound) }
            try executeBoundValues(bindingResult: binding.code)
        } catch let error as DatabaseError {
            // Arguments are only built for the error message.
            throw error.with(arguments: StatementArguments(arguments()))
        }
    }

    /// The 0-based offset of the parameter named `name`. The parameter at
    /// `hint` is tried first: values usually come in parameter order, and
    /// the same literals compare by their bits.
    ///
    /// Inlined, so that the usual case (the parameter at `hint`, the same
    /// literal) costs a comparison of bits and no call.
    @inlinable
    @inline(__always)
    func parameterOffset(named name: String, hint: Int) throws -> Int {
        if hint < argumentNames.count, let candidate = argumentNames[hint], candidate == name {
            return hint
        }
        return try parameterOffset(searching: name)
    }

    /// The 0-based offset of the parameter named `name`, searched.
    @usableFromInline
    func parameterOffset(searching name: String) throws -> Int {
        if let offset = argumentNames.firstIndex(where: { $0 == name }) {
            return offset
        }
        try rejectNamedValues(unknown: name)
    }

    /// Throws the error of a name that no parameter has.
    private func rejectNamedValues(unknown name: String) throws -> Never {
        try rejectNamedValues(DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "no parameter named \(String(reflecting: name)) in statement",
            sql: sql))
    }

    /// Throws the error of a name given twice to `execute(named:)`.
    @usableFromInline
    func rejectNamedValues(duplicate name: String) throws -> Never {
        try rejectNamedValues(DatabaseError(
            resultCode: .SQLITE_MISUSE, message: "duplicate statement argument: \(name)", sql: sql))
    }

    /// Throws the error of the first parameter whose bit is not set in
    /// `bound`.
    @usableFromInline
    func rejectNamedValues(bound: UInt64) throws -> Never {
        let offset = (~bound).trailingZeroBitCount
        try rejectNamedValues(missingValueError(at: offset, given: bound.nonzeroBitCount))
    }

    /// The error of a parameter left without a value by `execute(named:)`.
    private func missingValueError(at offset: Int, given: Int) -> DatabaseError {
        if let name = argumentNames[offset] {
            return DatabaseError(resultCode: .SQLITE_MISUSE, message: "missing statement argument: \(name)", sql: sql)
        }
        return DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "wrong number of statement arguments: \(given)",
            sql: sql)
    }

    /// Leaves the statement without bound values, so that it can't run
    /// with some values of a previous execution, and throws `error`.
    private func rejectNamedValues(_ error: DatabaseError) throws -> Never {
        sqlite3_clear_bindings(sqliteStatement)
        argumentsAreBound = argumentNames.isEmpty
        throw error
    }

    /// `execute(named:)` for statements with more than 64 parameters, or
    /// a name shared by several parameters (`:a` and `$a`, which get the
    /// same value).
    @usableFromInline
    func execute(namedValues: [(String, (any DatabaseValueConvertible)?)]) throws {
        sqlite3_reset(sqliteStatement)
        let arguments = StatementArguments(namedValues)
        do {
            var bound = [Bool](repeating: false, count: argumentNames.count)
            var seen = Set<String>()
            for (name, _) in namedValues {
                if !seen.insert(name).inserted { try rejectNamedValues(duplicate: name) }
                var found = false
                for (offset, candidate) in argumentNames.enumerated() where candidate == name {
                    bound[offset] = true
                    found = true
                }
                if !found { try rejectNamedValues(unknown: name) }
            }
            if let offset = bound.firstIndex(of: false) {
                try rejectNamedValues(missingValueError(at: offset, given: namedValues.count))
            }
        } catch let error as DatabaseError {
            throw error.with(arguments: arguments)
        }
        try execute(arguments: arguments)
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
                message: "wrong number of statement arguments: \(count)",
                sql: sql)
        }
        try executeBoundValues(bindingResult: bindingResult)
    }

    /// Runs the statement once every parameter has its value;
    /// `bindingResult` is the first binding error, if any.
    // @inline(__always): insert-by-name, +2.4% instructions without it and bind(_:_:) (callgrind, quick).
    @usableFromInline @inline(__always)
    func executeBoundValues(bindingResult: CInt) throws {
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

/// One bit per parameter, for `execute(named:)`, or nil if the statement
/// has more than 64 parameters or a name shared by several of them.
private func allParametersMask(_ names: [String?]) -> UInt64? {
    if names.count > 64 { return nil }
    for (offset, name) in names.enumerated() {
        if let name, names[(offset + 1)...].contains(name) { return nil }
    }
    return names.count == 64 ? .max : (1 << UInt64(names.count)) - 1
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
