#if DIFFERENTIAL_GRDB
import GRDB
#else
import GRDBLite
#endif
import DifferentialProgram

/// The persistence steps of records.
enum RecordSteps {
    static func perform(
        _ operation: RecordOperation, _ values: RecordValues, conflict: Conflict?, _ db: Database)
    throws -> String
    {
        let resolution = conflict.map(resolution)
        switch values.table {
        case .player:
            var player = Player(values.values)
            switch operation {
            case .insert: try player.insert(db, onConflict: resolution)
            case .save: try player.save(db, onConflict: resolution)
            case .update: try player.update(db, onConflict: resolution)
            case .upsert: try player.upsert(db)
            case .delete: return try "deleted: \(player.delete(db))"
            case .exists: return try "exists: \(player.exists(db))"
            case .insertAndFetch: return try Canonical.text(player.insertAndFetch(db, onConflict: resolution))
            case .updateAndFetch: return try Canonical.text(player.updateAndFetch(db, onConflict: resolution))
            case .saveAndFetch: return try Canonical.text(player.saveAndFetch(db, onConflict: resolution))
            case .upsertAndFetch: return try Canonical.text(player.upsertAndFetch(db))
            case .updateChanges:
                guard var stored = try Player.filter(Column("id") == player.id).fetchOne(db) else { return "not found" }
                let changed = try stored.updateChanges(db) { $0.set(values.values) }
                return "changed: \(changed) \(Canonical.text(stored))"
            }
            return Canonical.text(player)
        case .team:
            let team = Team(values.values)
            switch operation {
            case .insert: try team.insert(db, onConflict: resolution)
            case .save: try team.save(db, onConflict: resolution)
            case .update: try team.update(db, onConflict: resolution)
            case .upsert: try team.upsert(db)
            case .delete: return try "deleted: \(team.delete(db))"
            case .exists: return try "exists: \(team.exists(db))"
            case .insertAndFetch: return try Canonical.text(team.insertAndFetch(db, onConflict: resolution))
            case .updateAndFetch: return try Canonical.text(team.updateAndFetch(db, onConflict: resolution))
            case .saveAndFetch: return try Canonical.text(team.saveAndFetch(db, onConflict: resolution))
            case .upsertAndFetch: return try Canonical.text(team.upsertAndFetch(db))
            case .updateChanges:
                guard var stored = try Team.filter(Column("id") == team.id).fetchOne(db) else { return "not found" }
                let changed = try stored.updateChanges(db) { $0.set(values.values) }
                return "changed: \(changed) \(Canonical.text(stored))"
            }
            return Canonical.text(team)
        }
    }

    /// `deleteAndFetchAll` of the table's records.
    static func deleteAndFetch(_ table: TableName, _ filter: Filter?, _ db: Database) throws -> String {
        switch table {
        case .player:
            let request = filter.map { Player.filter(Requests.expression($0)) } ?? Player.all()
            return try request.deleteAndFetchAll(db).map(Canonical.text).joined(separator: "\n")
        case .team:
            let request = filter.map { Team.filter(Requests.expression($0)) } ?? Team.all()
            return try request.deleteAndFetchAll(db).map(Canonical.text).joined(separator: "\n")
        }
    }

    static func resolution(_ conflict: Conflict) -> Database.ConflictResolution {
        switch conflict {
        case .abort: .abort
        case .ignore: .ignore
        case .replace: .replace
        }
    }
}
