import CSQLite

/// A cursor over the statements of an SQL string, compiled one after the
/// other as the cursor is iterated: a statement may use the tables that
/// the statements before it create.
///
/// ```swift
/// let statements = try db.allStatements(sql: """
///     SELECT name FROM player WHERE id = ?;
///     SELECT name FROM team WHERE id = ?;
///     """, arguments: [1, 2])
/// while let statement = try statements.next() {
///     print(try String.fetchAll(statement))
/// }
/// ```
public final class SQLStatementCursor: Cursor {
    private let database: Database
    /// The SQL, NUL-terminated.
    private let cString: ContiguousArray<CChar>
    /// The offset of the next statement in `cString`.
    private var offset = 0
    /// The arguments left for the next statements; nil when the
    /// statements get their arguments when they run.
    private var arguments: StatementArguments?
    private let initialArgumentCount: Int

    init(database: Database, sql: String, arguments: StatementArguments?) {
        self.database = database
        self.cString = sql.utf8CString
        self.arguments = arguments
        self.initialArgumentCount = arguments?.values.count ?? 0
    }

    public func next() throws -> Statement? {
        guard offset < cString.count - 1 else {
            try checkArgumentsAreConsumed()
            return nil
        }
        // unsafe: `start` and `tail` point into `cString`, and don't escape the closure.
        let statement = try cString.withUnsafeBufferPointer { buffer -> Statement? in
            let start = buffer.baseAddress! + offset
            var tail: UnsafePointer<CChar>?
            let statement = try database.prepareStatement(at: start, tail: &tail, persistent: false)
            offset = tail.map { $0 - buffer.baseAddress! } ?? (cString.count - 1)
            return statement
        }
        guard let statement else {
            try checkArgumentsAreConsumed()
            return nil
        }
        if arguments != nil {
            let bindings = try arguments!.extractBindings(forStatement: statement, allowingRemainingValues: true)
            try statement.setArguments(StatementArguments(bindings))
        }
        return statement
    }

    /// Positional arguments left over after the last statement are an
    /// error, as in GRDB.
    private func checkArgumentsAreConsumed() throws {
        if let arguments, !arguments.values.isEmpty {
            self.arguments = StatementArguments()
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "wrong number of statement arguments: \(initialArgumentCount)")
        }
    }
}

extension Database {
    /// A cursor over the statements of `sql`, which are compiled as the
    /// cursor is iterated. With `arguments`, each statement gets the
    /// values of its parameters in order, and values left over are an
    /// error; without, give arguments to each statement when it runs.
    public func allStatements(sql: String, arguments: StatementArguments? = nil) throws -> SQLStatementCursor {
        // SQLite stops reading at a NUL character: the rest would be ignored.
        if sql.utf8.contains(0) {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "SQL contains a NUL character", sql: sql)
        }
        return SQLStatementCursor(database: self, sql: sql, arguments: arguments)
    }

    /// A cursor over the statements of SQL built with interpolation; the
    /// interpolated values are the arguments of the statements.
    public func allStatements(literal sqlLiteral: SQL) throws -> SQLStatementCursor {
        let (sql, arguments) = try sqlLiteral.build(self)
        return SQLStatementCursor(database: self, sql: sql, arguments: arguments.isEmpty ? nil : arguments)
    }

    /// The maximum number of arguments a statement accepts
    /// (`SQLITE_LIMIT_VARIABLE_NUMBER`).
    public var maximumStatementArgumentCount: Int {
        Int(sqlite3_limit(sqliteHandle, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
    }
}
