import CSQLite
import Foundation

/// A custom string comparison for SQL (`ORDER BY name COLLATE ...`).
///
/// ```swift
/// db.add(collation: .localizedCaseInsensitiveCompare)
/// try db.execute(sql: "CREATE TABLE player (name TEXT COLLATE localizedCaseInsensitiveCompare)")
///
/// let byLength = DatabaseCollation("byLength") { lhs, rhs in
///     lhs.count < rhs.count ? .orderedAscending : lhs.count > rhs.count ? .orderedDescending : .orderedSame
/// }
/// db.add(collation: byLength)
/// ```
public final class DatabaseCollation: Hashable, Sendable {
    /// The name of the collation.
    public let name: String
    let compare: @Sendable (String, String) -> ComparisonResult

    /// A collation that compares with `function`.
    public init(_ name: String, function: @escaping @Sendable (String, String) -> ComparisonResult) {
        self.name = name
        self.compare = function
    }

    public static func == (lhs: DatabaseCollation, rhs: DatabaseCollation) -> Bool {
        lhs.name.lowercased() == rhs.name.lowercased()
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name.lowercased())
    }

    /// `String.caseInsensitiveCompare`.
    public static let caseInsensitiveCompare = DatabaseCollation("caseInsensitiveCompare") {
        $0.caseInsensitiveCompare($1)
    }
    /// `String.localizedCaseInsensitiveCompare`.
    public static let localizedCaseInsensitiveCompare = DatabaseCollation("localizedCaseInsensitiveCompare") {
        $0.localizedCaseInsensitiveCompare($1)
    }
    /// `String.localizedCompare`.
    public static let localizedCompare = DatabaseCollation("localizedCompare") {
        $0.localizedCompare($1)
    }
    /// `String.localizedStandardCompare`.
    public static let localizedStandardCompare = DatabaseCollation("localizedStandardCompare") {
        $0.localizedStandardCompare($1)
    }
    /// Unicode code point order.
    public static let unicodeCompare = DatabaseCollation("unicodeCompare") {
        $0 < $1 ? .orderedAscending : $0 == $1 ? .orderedSame : .orderedDescending
    }

    func install(in db: Database) {
        let context = Unmanaged.passRetained(self).toOpaque()
        let code = sqlite3_create_collation_v2(
            db.sqliteConnection, name, SQLITE_UTF8, context,
            { context, length1, bytes1, length2, bytes2 in
                let collation = Unmanaged<DatabaseCollation>.fromOpaque(context!).takeUnretainedValue()
                let lhs = String(decoding: UnsafeRawBufferPointer(start: bytes1, count: Int(length1)), as: UTF8.self)
                let rhs = String(decoding: UnsafeRawBufferPointer(start: bytes2, count: Int(length2)), as: UTF8.self)
                return CInt(collation.compare(lhs, rhs).rawValue)
            },
            { Unmanaged<DatabaseCollation>.fromOpaque($0!).release() })
        if code != SQLITE_OK {
            fatalError("\(DatabaseError(resultCode: code, message: db.lastErrorMessage))")
        }
    }
}

extension Database {
    /// Adds or replaces a custom collation.
    public func add(collation: DatabaseCollation) {
        preconditionValidAccess()
        collations[collation.name.lowercased()] = collation
        collation.install(in: self)
    }

    /// Removes a custom collation.
    public func remove(collation: DatabaseCollation) {
        preconditionValidAccess()
        collations[collation.name.lowercased()] = nil
        sqlite3_create_collation_v2(sqliteConnection, collation.name, SQLITE_UTF8, nil, nil, nil)
    }
}

extension Database {
    /// Installs the collations and functions that every connection has, as
    /// in GRDB: the `String` comparisons of ``DatabaseCollation`` and the
    /// `String` case transformations of ``DatabaseFunction``.
    func addDefaultCollationsAndFunctions() {
        for collation in [
            DatabaseCollation.unicodeCompare, .caseInsensitiveCompare, .localizedCaseInsensitiveCompare,
            .localizedCompare, .localizedStandardCompare,
        ] {
            add(collation: collation)
        }
        for function in [
            DatabaseFunction.capitalize, .lowercase, .uppercase,
            .localizedCapitalize, .localizedLowercase, .localizedUppercase,
        ] {
            add(function: function)
        }
    }
}
