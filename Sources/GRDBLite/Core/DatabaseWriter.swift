/// A type that reads from a database: ``DatabaseQueue``.
///
/// Write generic code against it to accept any GRDB-style database
/// connection:
///
/// ```swift
/// func playerCount(_ reader: some DatabaseReader) throws -> Int {
///     try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
/// }
/// ```
public protocol DatabaseReader: AnyObject, Sendable {
    /// The configuration of the connection.
    var configuration: Configuration { get }
    /// The path of the database.
    var path: String { get }
    /// Runs `value` in a read-only transaction.
    func read<T>(_ value: (Database) throws -> T) throws -> T
    /// Runs `value` in a read-only transaction, without blocking.
    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T
    /// Runs `value` outside of any transaction, without the read-only
    /// guarantee.
    @_disfavoredOverload
    func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T
    /// Runs `value` outside of any transaction, without blocking.
    func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T
    /// Runs `value` as `unsafeRead` does; from inside an access of this
    /// database, runs it right away on the connection of that access.
    func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T
    /// Closes the connection.
    func close() throws
    /// Interrupts the running statement.
    func interrupt()
}

/// A type that writes into a database: ``DatabaseQueue``.
public protocol DatabaseWriter: DatabaseReader {
    /// Runs `updates` in a transaction.
    func write<T>(_ updates: (Database) throws -> T) throws -> T
    /// Runs `updates` in a transaction, without blocking.
    func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T
    /// Runs `updates` outside of any transaction.
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T
    /// Runs `updates` outside of any transaction, without blocking.
    func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T
    /// Runs `updates` outside of any transaction that it doesn't open;
    /// from inside an access of the writer, runs it right away in that
    /// access.
    func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T
}

extension DatabaseQueue: DatabaseWriter { }
