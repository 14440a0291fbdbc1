import Foundation

/// Provides ``Database/transactionDate``: asked once when a transaction
/// starts, and once per read outside of any transaction.
///
/// ```swift
/// var config = Configuration()
/// config.transactionClock = .custom { db in Date(timeIntervalSince1970: 0) }
/// ```
public protocol TransactionClock: Sendable {
    /// The date of the transaction that starts now in `db`.
    func now(_ db: Database) throws -> Date
}

extension TransactionClock where Self == DefaultTransactionClock {
    /// The real time: the start date of each transaction.
    public static var `default`: Self { DefaultTransactionClock() }
}

extension TransactionClock where Self == CustomTransactionClock {
    /// A clock that calls `now`, for tests and previews.
    public static func custom(_ now: @escaping @Sendable (Database) throws -> Date) -> Self {
        CustomTransactionClock(now)
    }
}

/// The real-time clock: `Date()`.
public struct DefaultTransactionClock: TransactionClock {
    init() { }

    public func now(_ db: Database) throws -> Date { Date() }
}

/// A clock that calls a function.
public struct CustomTransactionClock: TransactionClock {
    let _now: @Sendable (Database) throws -> Date

    public init(_ now: @escaping @Sendable (Database) throws -> Date) {
        self._now = now
    }

    public func now(_ db: Database) throws -> Date { try _now(db) }
}
