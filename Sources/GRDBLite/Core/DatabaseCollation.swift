import CSQLite
import Foundation

/// A custom string comparison for SQL (`ORDER BY name COLLATE ...`).
///
/// ```swift
/// // Built-in collations are always available, with GRDB's names:
/// try db.execute(sql: "CREATE TABLE player (name TEXT COLLATE swiftLocalizedCaseInsensitiveCompare)")
///
/// let byLength = DatabaseCollation("byLength") { lhs, rhs in
///     lhs.count < rhs.count ? .orderedAscending : lhs.count > rhs.count ? .orderedDescending : .orderedSame
/// }
/// db.add(collation: byLength)
/// ```
public final class DatabaseCollation: Identifiable, Sendable {
    /// Identifies a collation in SQLite: its name, compared
    /// case-insensitively (ASCII letters only, as SQLite does).
    public struct ID: Hashable, Sendable {
        let name: CaseInsensitiveIdentifier

        /// Two identifiers are equal when their names are, ignoring the
        /// case of ASCII letters.
        public static func == (lhs: ID, rhs: ID) -> Bool {
            lhs.name == rhs.name
        }

        /// Hashes the name, ignoring the case of ASCII letters.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
        }
    }

    /// The name of the collation.
    public let name: String

    /// The identifier of the collation: its name.
    public var id: ID { ID(name: CaseInsensitiveIdentifier(name)) }
    let compare: @Sendable (String, String) -> ComparisonResult

    /// A collation that compares with `function`.
    public init(_ name: String, function: @escaping @Sendable (String, String) -> ComparisonResult) {
        self.name = name
        self.compare = function
    }

    // The built-in collations have GRDB's SQL names, so that databases
    // created with GRDB keep working. Every connection registers them.

    /// `String.caseInsensitiveCompare`, named `swiftCaseInsensitiveCompare`.
    public static let caseInsensitiveCompare = DatabaseCollation("swiftCaseInsensitiveCompare") {
        $0.caseInsensitiveCompare($1)
    }
    /// `String.localizedCaseInsensitiveCompare`, named
    /// `swiftLocalizedCaseInsensitiveCompare`.
    public static let localizedCaseInsensitiveCompare = DatabaseCollation("swiftLocalizedCaseInsensitiveCompare") {
        $0.localizedCaseInsensitiveCompare($1)
    }
    /// `String.localizedCompare`, named `swiftLocalizedCompare`.
    public static let localizedCompare = DatabaseCollation("swiftLocalizedCompare") {
        $0.localizedCompare($1)
    }
    /// `String.localizedStandardCompare`, named `swiftLocalizedStandardCompare`.
    public static let localizedStandardCompare = DatabaseCollation("swiftLocalizedStandardCompare") {
        $0.localizedStandardCompare($1)
    }
    /// Unicode code point order, named `swiftCompare`.
    public static let unicodeCompare = DatabaseCollation("swiftCompare") {
        $0 < $1 ? .orderedAscending : $0 == $1 ? .orderedSame : .orderedDescending
    }

    /// The collations every connection registers, as GRDB does.
    static let builtIn: [DatabaseCollation] = [
        .unicodeCompare, .caseInsensitiveCompare, .localizedCaseInsensitiveCompare,
        .localizedCompare, .localizedStandardCompare,
    ]

    /// Registers the collation on a connection; throws when SQLite can't
    /// (out of memory).
    func install(in db: Database) throws {
        // Unmanaged: SQLite owns a retained reference, released by xDestroy.
        let context = Unmanaged.passRetained(self).toOpaque()
        let code = sqlite3_create_collation_v2(
            db.sqliteHandle, name, SQLITE_UTF8, context,
            { context, length1, bytes1, length2, bytes2 in
                // Unmanaged, unretained: SQLite holds the retained reference until xDestroy.
                let collation = Unmanaged<DatabaseCollation>.fromOpaque(context!).takeUnretainedValue()
                let lhs = String(decoding: UnsafeRawBufferPointer(start: bytes1, count: Int(length1)), as: UTF8.self)
                let rhs = String(decoding: UnsafeRawBufferPointer(start: bytes2, count: Int(length2)), as: UTF8.self)
                return CInt(collation.compare(lhs, rhs).rawValue)
            },
            // Unmanaged: xDestroy releases the reference retained at registration.
            { Unmanaged<DatabaseCollation>.fromOpaque($0!).release() })
        if code != SQLITE_OK {
            // SQLite doesn't call xDestroy when registration fails.
            // Unmanaged: releases the reference retained for SQLite, which refused it.
            Unmanaged<DatabaseCollation>.fromOpaque(context).release()
            throw DatabaseError(resultCode: code, message: db.lastErrorMessage)
        }
    }
}

extension Database {
    /// Adds or replaces a custom collation.
    public func add(collation: DatabaseCollation) {
        preconditionValidAccess()
        collations[CaseInsensitiveIdentifier(collation.name)] = collation
        if isClosed { return } // its statements throw SQLITE_MISUSE anyway
        do {
            try collation.install(in: self)
        } catch {
            fatalError("Could not add collation \(collation.name): \(error)")
        }
    }

    /// Removes a custom collation.
    public func remove(collation: DatabaseCollation) {
        preconditionValidAccess()
        collations[CaseInsensitiveIdentifier(collation.name)] = nil
        if isClosed { return }
        sqlite3_create_collation_v2(sqliteHandle, collation.name, SQLITE_UTF8, nil, nil, nil)
    }
}
