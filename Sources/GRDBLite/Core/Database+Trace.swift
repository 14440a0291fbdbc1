import CSQLite
import Foundation

extension Database {
    /// What ``trace(options:_:)`` reports.
    public struct TracingOptions: OptionSet, Sendable {
        public let rawValue: CInt
        public init(rawValue: CInt) { self.rawValue = rawValue }

        /// Each statement, when it starts running.
        public static let statement = TracingOptions(rawValue: CInt(SQLITE_TRACE_STMT))
        /// Each statement, when it ends, with its duration.
        public static let profile = TracingOptions(rawValue: CInt(SQLITE_TRACE_PROFILE))
    }

    /// A traced event.
    public enum TraceEvent: CustomStringConvertible {
        /// A traced statement.
        public struct Statement: CustomStringConvertible {
            /// The SQL, with parameters (`?`). Statements run by triggers
            /// start with `--`.
            public let sql: String
            /// The SQL with the bound values in place of the parameters.
            public let expandedSQL: String
            /// Whether `description` shows the values (see
            /// `Configuration.publicStatementArguments`).
            let publicStatementArguments: Bool
            /// The SQL, with values in place of parameters when the
            /// configuration has `publicStatementArguments`.
            public var description: String { publicStatementArguments ? expandedSQL : sql }
        }

        case statement(Statement)
        case profile(statement: Statement, duration: TimeInterval)

        /// The SQL of the statement, with values in place of parameters
        /// when the configuration has `publicStatementArguments`.
        public var description: String {
            switch self {
            case .statement(let statement): statement.description
            case let .profile(statement, duration): "\(String(format: "%.3f", duration))s \(statement.description)"
            }
        }

        /// The description with values in place of parameters. Mind the
        /// private data it may show.
        public var expandedDescription: String {
            switch self {
            case .statement(let statement): statement.expandedSQL
            case let .profile(statement, duration): "\(String(format: "%.3f", duration))s \(statement.expandedSQL)"
            }
        }

        /// The SQL with values in place of parameters.
        var expandedSQL: String {
            switch self {
            case .statement(let statement), .profile(let statement, _): statement.expandedSQL
            }
        }
    }

    /// Reports the statements the connection runs, until called with nil.
    /// Costs nothing when not tracing.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.prepareDatabase { db in
    ///     db.trace { print("SQL: \($0)") }
    /// }
    /// ```
    public func trace(options: TracingOptions = .statement, _ trace: ((TraceEvent) -> Void)? = nil) {
        preconditionValidAccess()
        traceFunction = trace
        if isClosed { return } // no statement runs anyway
        guard trace != nil else {
            sqlite3_trace_v2(sqliteHandle, 0, nil, nil)
            return
        }
        // Unmanaged, unretained: the callback belongs to the connection, which this object closes.
        // unsafe: `p` and `x` are typed by `mask`, as sqlite3_trace_v2 documents.
        sqlite3_trace_v2(sqliteHandle, UInt32(options.rawValue), { mask, dbPointer, p, x in
            // Unmanaged, unretained: the connection closes this callback before it goes away.
            let db = Unmanaged<Database>.fromOpaque(dbPointer!).takeUnretainedValue()
            guard let trace = db.traceFunction, let p else { return 0 }
            let statement = OpaquePointer(p)
            let sql: String
            if mask == UInt32(SQLITE_TRACE_STMT), let x {
                // unsafe: for SQLITE_TRACE_STMT, `x` is the statement's SQL, a C string alive for the callback.
                sql = String(cString: x.assumingMemoryBound(to: CChar.self))
            } else {
                sql = sqlite3_sql(statement).map { String(cString: $0) } ?? ""
            }
            let expanded = sqlite3_expanded_sql(statement)
            defer { sqlite3_free(expanded) }
            let event = TraceEvent.Statement(
                sql: sql.trimmedSQLStatement,
                expandedSQL: expanded.map { String(cString: $0).trimmedSQLStatement } ?? sql,
                publicStatementArguments: db.configuration.publicStatementArguments)
            if mask == UInt32(SQLITE_TRACE_PROFILE), let x {
                // unsafe: for SQLITE_TRACE_PROFILE, `x` points to the statement's duration in nanoseconds, an Int64.
                let nanoseconds = x.assumingMemoryBound(to: Int64.self).pointee
                trace(.profile(statement: event, duration: TimeInterval(nanoseconds) / 1e9))
            } else {
                trace(.statement(event))
            }
            return 0
        }, Unmanaged.passUnretained(self).toOpaque()) // Unmanaged, unretained: the connection outlives its trace hook
    }
}
