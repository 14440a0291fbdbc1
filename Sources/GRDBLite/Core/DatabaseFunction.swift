import CSQLite
import Foundation

/// A custom SQL function, scalar or aggregate.
///
/// ```swift
/// let unicodeUpper = DatabaseFunction("unicodeUpper", argumentCount: 1, pure: true) { dbValues in
///     String.fromDatabaseValue(dbValues[0])?.uppercased()
/// }
/// db.add(function: unicodeUpper)
/// try String.fetchOne(db, sql: "SELECT unicodeUpper(?)", arguments: ["é"]) // "É"
/// ```
///
/// A function that throws makes the statement fail with the error's
/// message (and its SQLite code, for a ``DatabaseError``).
// @unchecked Sendable: immutable; only the aggregate's metatype is not
// Sendable to the compiler, and a metatype holds no state.
public final class DatabaseFunction: Identifiable, @unchecked Sendable {
    /// Identifies a function in SQLite: its name (ASCII letters compared
    /// case-insensitively) and number of arguments.
    public struct ID: Hashable, Sendable {
        let name: CaseInsensitiveIdentifier
        let argumentCount: CInt
    }

    /// The name of the function.
    public let name: String
    let argumentCount: CInt
    let isPure: Bool
    private let kind: Kind

    // Immutable: the metatype of an aggregate is safe to share.
    private enum Kind {
        case scalar(@Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
        case aggregate(any DatabaseAggregate.Type)
    }

    /// The identifier of the function: its name and number of arguments.
    public var id: ID { ID(name: CaseInsensitiveIdentifier(name), argumentCount: argumentCount) }

    /// Whether the function is an aggregate.
    var isAggregate: Bool {
        if case .aggregate = kind { return true }
        return false
    }

    /// A scalar function.
    ///
    /// - parameters:
    ///   - name: The name of the function.
    ///   - argumentCount: The number of arguments; nil for any number.
    ///   - pure: Whether the result only depends on the arguments, which
    ///     lets SQLite optimize (and use the function in indexes).
    ///   - function: Computes the result from the arguments.
    public init(
        _ name: String,
        argumentCount: Int? = nil,
        pure: Bool = false,
        function: @escaping @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
    {
        self.name = name
        self.argumentCount = CInt(argumentCount ?? -1)
        self.isPure = pure
        self.kind = .scalar(function)
    }

    /// An aggregate function: SQLite creates one `Aggregate` per group,
    /// calls its `step` for each row, then `finalize`.
    public init<Aggregate: DatabaseAggregate>(
        _ name: String,
        argumentCount: Int? = nil,
        pure: Bool = false,
        aggregate: Aggregate.Type)
    {
        self.name = name
        self.argumentCount = CInt(argumentCount ?? -1)
        self.isPure = pure
        self.kind = .aggregate(aggregate)
    }

    /// Registers the function on a connection; throws when SQLite can't
    /// (out of memory). SQLite calls xDestroy when registration fails.
    func install(in db: Database) throws {
        let flags = SQLITE_UTF8 | (isPure ? SQLITE_DETERMINISTIC : 0)
        // SQLite owns a retained reference, released by xDestroy.
        let context = Unmanaged.passRetained(self).toOpaque()
        let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = {
            // Unmanaged: xDestroy releases the reference retained at registration.
            Unmanaged<DatabaseFunction>.fromOpaque($0!).release()
        }
        let code: CInt
        switch kind {
        case .scalar:
            code = sqlite3_create_function_v2(
                db.sqliteHandle, name, argumentCount, flags, context,
                { sqliteContext, argc, argv in
                    // Unmanaged: the user data retained above, alive until xDestroy.
                    let function = Unmanaged<DatabaseFunction>
                        .fromOpaque(sqlite3_user_data(sqliteContext)).takeUnretainedValue()
                    guard case .scalar(let body) = function.kind else { return }
                    do {
                        let result = try body(DatabaseFunction.arguments(argc, argv))
                        DatabaseFunction.setResult(result?.databaseValue ?? .null, sqliteContext)
                    } catch {
                        DatabaseFunction.setError(error, sqliteContext)
                    }
                },
                nil, nil, destroy)
        case .aggregate:
            code = sqlite3_create_function_v2(
                db.sqliteHandle, name, argumentCount, flags, context,
                nil,
                { sqliteContext, argc, argv in
                    let state = DatabaseFunction.aggregateState(sqliteContext)
                    guard state.error == nil else { return }
                    do {
                        try state.aggregate.step(DatabaseFunction.arguments(argc, argv))
                    } catch {
                        state.error = error
                    }
                },
                { sqliteContext in
                    let state = DatabaseFunction.aggregateState(sqliteContext, final: true)
                    if let error = state.error {
                        DatabaseFunction.setError(error, sqliteContext)
                        return
                    }
                    do {
                        let result = try state.aggregate.finalize()
                        DatabaseFunction.setResult(result?.databaseValue ?? .null, sqliteContext)
                    } catch {
                        DatabaseFunction.setError(error, sqliteContext)
                    }
                },
                destroy)
        }
        if code != SQLITE_OK {
            throw DatabaseError(resultCode: code, message: db.lastErrorMessage)
        }
    }

    func uninstall(from db: Database) {
        sqlite3_create_function_v2(db.sqliteHandle, name, argumentCount, SQLITE_UTF8, nil, nil, nil, nil, nil)
    }

    private static func arguments(_ argc: CInt, _ argv: UnsafeMutablePointer<OpaquePointer?>?) -> [DatabaseValue] {
        (0..<Int(argc)).map { DatabaseValue(sqliteValue: argv![$0]!) }
    }

    private static func setResult(_ dbValue: DatabaseValue, _ sqliteContext: OpaquePointer?) {
        switch dbValue.storage {
        case .null:
            sqlite3_result_null(sqliteContext)
        case .int64(let value):
            sqlite3_result_int64(sqliteContext, value)
        case .double(let value):
            sqlite3_result_double(sqliteContext, value)
        case .string(var value):
            value.withUTF8 {
                sqlite3_result_text64(
                    sqliteContext, UnsafeRawPointer($0.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                        // unsafe: UTF-8 as C chars, copied by SQLite (transient); a dummy
                        // non-null address for empty text, of which SQLite reads 0 bytes.
                        .assumingMemoryBound(to: CChar.self),
                    sqlite3_uint64($0.count), grdblite_transient(), UInt8(SQLITE_UTF8))
            }
        case .blob(let data):
            // unsafe bytes: alive for the call; SQLite copies them (SQLITE_TRANSIENT).
            data.withUnsafeBytes {
                if let start = $0.baseAddress, $0.count > 0 {
                    sqlite3_result_blob64(sqliteContext, start, sqlite3_uint64($0.count), grdblite_transient())
                } else {
                    sqlite3_result_zeroblob(sqliteContext, 0)
                }
            }
        }
    }

    private static func setError(_ error: any Error, _ sqliteContext: OpaquePointer?) {
        if let error = error as? DatabaseError {
            sqlite3_result_error(sqliteContext, error.message ?? "error", -1)
            sqlite3_result_error_code(sqliteContext, error.extendedResultCode.rawValue)
        } else {
            sqlite3_result_error(sqliteContext, "\(error)", -1)
        }
    }

    /// The state of one group of an aggregate.
    private final class AggregateState {
        var aggregate: any DatabaseAggregate
        var error: (any Error)?
        init(_ aggregate: any DatabaseAggregate) { self.aggregate = aggregate }
    }

    /// The state stored in SQLite's aggregate context; `final` releases it.
    /// Unmanaged: the slot holds one retained reference from the first step
    /// to `final` (SQLite calls xFinal once for each group it started).
    private static func aggregateState(_ sqliteContext: OpaquePointer?, final: Bool = false) -> AggregateState {
        let size = CInt(MemoryLayout<UnsafeMutableRawPointer?>.size)
        // unsafe: the aggregate context is `size` bytes that SQLite zeroes and keeps alive until xFinal:
        // one optional pointer, nil at the first step.
        let slot = sqlite3_aggregate_context(sqliteContext, size)!.assumingMemoryBound(
            to: UnsafeMutableRawPointer?.self)
        let state: AggregateState
        if let pointer = slot.pointee {
            // Unmanaged, unretained: SQLite's aggregate context holds the retained state.
            state = Unmanaged<AggregateState>.fromOpaque(pointer).takeUnretainedValue()
        } else {
            // Unmanaged, unretained: SQLite holds the function's retained reference.
            let function = Unmanaged<DatabaseFunction>.fromOpaque(sqlite3_user_data(sqliteContext))
                .takeUnretainedValue()
            guard case .aggregate(let type) = function.kind else { fatalError("not an aggregate") }
            state = AggregateState(type.init())
            // Unmanaged: retained in SQLite's aggregate context, released in xFinal.
            slot.pointee = Unmanaged.passRetained(state).toOpaque()
        }
        if final, let pointer = slot.pointee {
            // Unmanaged: releases the state retained in the aggregate context.
            Unmanaged<AggregateState>.fromOpaque(pointer).release()
            slot.pointee = nil
        }
        return state
    }
}

// MARK: - Built-in functions

extension DatabaseFunction {
    // GRDB's string functions, with GRDB's SQL names. Every connection
    // registers them. They return NULL for arguments that are not text.

    /// `String.capitalized`, named `swiftCapitalizedString`.
    public static let capitalize = stringFunction("swiftCapitalizedString") { $0.capitalized }
    /// `String.lowercased()`, named `swiftLowercaseString`.
    public static let lowercase = stringFunction("swiftLowercaseString") { $0.lowercased() }
    /// `String.uppercased()`, named `swiftUppercaseString`.
    public static let uppercase = stringFunction("swiftUppercaseString") { $0.uppercased() }
    /// `String.localizedCapitalized`, named `swiftLocalizedCapitalizedString`.
    public static let localizedCapitalize = stringFunction("swiftLocalizedCapitalizedString") {
        $0.localizedCapitalized
    }
    /// `String.localizedLowercase`, named `swiftLocalizedLowercaseString`.
    public static let localizedLowercase = stringFunction("swiftLocalizedLowercaseString") { $0.localizedLowercase }
    /// `String.localizedUppercase`, named `swiftLocalizedUppercaseString`.
    public static let localizedUppercase = stringFunction("swiftLocalizedUppercaseString") { $0.localizedUppercase }

    static let builtIn: [DatabaseFunction] = [
        .capitalize, .lowercase, .uppercase, .localizedCapitalize, .localizedLowercase, .localizedUppercase,
    ]

    private static func stringFunction(_ name: String, _ transform: @escaping @Sendable (String) -> String)
        -> DatabaseFunction
    {
        DatabaseFunction(name, argumentCount: 1, pure: true) { dbValues in
            String.fromDatabaseValue(dbValues[0]).map(transform)
        }
    }
}

/// The state of an aggregate function for one group of rows.
///
/// ```swift
/// struct MySum: DatabaseAggregate {
///     var sum = 0
///     mutating func step(_ dbValues: [DatabaseValue]) {
///         sum += Int.fromDatabaseValue(dbValues[0]) ?? 0
///     }
///     func finalize() -> (any DatabaseValueConvertible)? { sum }
/// }
/// db.add(function: DatabaseFunction("mysum", argumentCount: 1, aggregate: MySum.self))
/// ```
public protocol DatabaseAggregate {
    init()
    /// Called for each row of the group.
    mutating func step(_ dbValues: [DatabaseValue]) throws
    /// The result for the group.
    func finalize() throws -> (any DatabaseValueConvertible)?
}

extension Database {
    /// Adds or replaces a custom SQL function.
    public func add(function: DatabaseFunction) {
        preconditionValidAccess()
        functions[function.id] = function
        if isClosed { return } // its statements throw SQLITE_MISUSE anyway
        do {
            try function.install(in: self)
        } catch {
            fatalError("Could not add function \(function.name): \(error)")
        }
    }

    /// Removes a custom SQL function.
    public func remove(function: DatabaseFunction) {
        preconditionValidAccess()
        functions[function.id] = nil
        if isClosed { return }
        function.uninstall(from: self)
    }
}
