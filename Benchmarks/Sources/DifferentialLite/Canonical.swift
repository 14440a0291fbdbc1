#if DIFFERENTIAL_GRDB
import GRDB
#else
import GRDBLite
#endif
import Foundation

/// Canonical text of what a program observes, the same for both libraries.
enum Canonical {
    static func text(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "NULL"
        case .int64(let value): "\(value)"
        case .double(let value): "\(value)r"
        case .string(let value): value.debugDescription
        case .blob(let value): "blob(\(value.count))"
        }
    }

    static func text(_ row: Row) -> String {
        var parts = zip(row.columnNames, row.databaseValues).map { "\($0):\(text($1))" }
        for name in row.scopes.names.sorted() {
            parts.append("\(name):\(row.scopes[name].map(text) ?? "nil")")
        }
        for key in row.prefetchedRows.keys.sorted() {
            parts.append("\(key):[\((row.prefetchedRows[key] ?? []).map(text).joined(separator: ", "))]")
        }
        return "[\(parts.joined(separator: " "))]"
    }

    static func text(_ player: Player) -> String {
        let date = player.createdAt.map { "\($0.timeIntervalSince1970)" } ?? "nil"
        return "Player(id: \(opt(player.id)), teamId: \(opt(player.teamId)), "
            + "name: \(opt(player.name?.debugDescription)), score: \(player.score), createdAt: \(date))"
    }

    static func text(_ team: Team) -> String {
        "Team(id: \(opt(team.id)), name: \(opt(team.name?.debugDescription)), "
            + "city: \(opt(team.city?.debugDescription)))"
    }

    static func text(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return "DatabaseError(\(error.resultCode.rawValue)/\(error.extendedResultCode.rawValue)): "
                + (error.message ?? "nil")
        }
        return "\(type(of: error)): \(error)"
    }

    private static func opt(_ value: (some CustomStringConvertible)?) -> String {
        value.map(\.description) ?? "nil"
    }
}
