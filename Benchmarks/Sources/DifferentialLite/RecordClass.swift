#if DIFFERENTIAL_GRDB
import GRDB
#else
import GRDBLite
#endif
import DifferentialProgram

/// A subclass of `Record` on the team table, with its change tracking.
final class TeamRecord: Record {
    var id: Int64?
    var name: String?
    var city: String?

    init(_ values: [Value]) {
        id = values[0].int
        name = values[1].text
        city = values[2].text
        super.init()
    }

    required init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        city = row["city"]
        try super.init(row: row)
    }

    override class var databaseTableName: String { "team" }

    override func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
        container["city"] = city
    }

    override func didInsert(_ inserted: InsertionSuccess) {
        super.didInsert(inserted)
        id = inserted.rowID
    }

    var text: String {
        "TeamRecord(id: \(id.map { "\($0)" } ?? "nil"), name: \(name?.debugDescription ?? "nil"), "
            + "city: \(city?.debugDescription ?? "nil"))"
    }

    /// `hasDatabaseChanges`, and `databaseChanges`: each column and its former value.
    var changes: String {
        get throws {
            let changes = try databaseChanges.sorted { $0.key < $1.key }
                .map { "\($0.key): \($0.value.map(Canonical.text) ?? "unknown")" }
            return "changes: \(hasDatabaseChanges) [\(changes.joined(separator: ", "))]"
        }
    }
}

enum RecordClassSteps {
    static func perform(_ step: RecordClassStep, _ db: Database) throws -> String {
        let record = TeamRecord(step.values)
        let before = try record.changes
        switch step.operation {
        case .insert: try record.insert(db)
        case .update: try record.update(db)
        case .save: try record.save(db)
        case .delete: return try "deleted: \(record.delete(db)), \(record.changes)"
        case .exists: return try "exists: \(record.exists(db))"
        case .updateChanges:
            guard let stored = try TeamRecord.filter(Column("id") == step.values[0].databaseValue).fetchOne(db)
            else { return "not found" }
            let fetched = try stored.changes
            stored.name = step.values[1].text
            stored.city = step.values[2].text
            let set = try stored.changes
            let updated = try stored.updateChanges(db)
            return try "fetched \(fetched); set \(set); updated: \(updated), \(stored.changes) \(stored.text)"
        case .fetchAll:
            return try TeamRecord.order(Column("id")).fetchAll(db).map { try "\($0.text) \($0.changes)" }
                .joined(separator: "\n")
        }
        return try "\(before) -> \(record.text) \(record.changes)"
    }
}
