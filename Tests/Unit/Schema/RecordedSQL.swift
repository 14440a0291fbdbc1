import GRDBLite

/// The schema statements (CREATE, ALTER, DROP) that `body` runs.
func recordedSchemaSQL(_ db: Database, _ body: () throws -> Void) throws -> [String] {
    final class Box { var statements: [String] = [] }
    let box = Box()
    db.trace { event in
        let sql = event.description
        if ["CREATE", "ALTER", "DROP", "REINDEX"].contains(where: { sql.hasPrefix($0) }) {
            box.statements.append(sql)
        }
    }
    defer { db.trace(nil) }
    try body()
    return box.statements
}
