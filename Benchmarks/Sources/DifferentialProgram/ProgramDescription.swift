/// A program as the Swift a GRDB user would write (`Player` and `Team` are
/// the interpreters' records).
extension Program: CustomStringConvertible {
    public var description: String {
        var lines = ["// differential program, seed \(seed)"]
        guard usesPool else {
            lines.append("let dbQueue = try DatabaseQueue(path: path)")
            lines += schema.lines
            lines += observation?.startLines ?? []
            lines.append("try dbQueue.inDatabase { db in")
            if observesTransactions {
                lines.append("    db.add(transactionObserver: EventLog(.\(observerFilter)), extent: .databaseLifetime)")
            }
            for step in steps { lines += step.lines.map { "    " + $0 } }
            lines.append("}")
            if observation != nil { lines.append("cancellable.cancel()") }
            return lines.joined(separator: "\n")
        }
        lines.append("let dbPool = try DatabasePool(path: path) // WAL")
        lines += schema.lines.map {
            $0.replacing("dbQueue.inDatabase", with: "dbPool.writeWithoutTransaction")
                .replacing("dbQueue", with: "dbPool")
        }
        if observesTransactions {
            lines.append("try dbPool.writeWithoutTransaction { db in "
                + "db.add(transactionObserver: EventLog(.\(observerFilter)), extent: .databaseLifetime) }")
        }
        for step in steps {
            if case .racingRead = step {
                lines += step.lines
                continue
            }
            lines.append("try dbPool.\(step.isRead ? "read" : "writeWithoutTransaction") { db in")
            lines += step.lines.map { "    " + $0 }
            lines.append("}")
        }
        return lines.joined(separator: "\n")
    }
}

extension Schema {
    var lines: [String] {
        var lines: [String] = []
        if usesMigrator { lines.append("var migrator = DatabaseMigrator()") }
        for (index, migration) in migrations.enumerated() {
            lines.append(usesMigrator
                ? "migrator.registerMigration(\"v\(index + 1)\") { db in"
                : "try dbQueue.inDatabase { db in")
            for table in migration.tables { lines += table.lines.map { "    " + $0 } }
            for index in migration.indexes {
                lines.append("    try db.create(index: \"\(index.name)\", on: \"\(index.table)\", "
                    + "columns: \(index.columns), unique: \(index.unique))")
            }
            lines.append("}")
        }
        if usesMigrator { lines.append("try migrator.migrate(dbQueue)") }
        return lines
    }
}

extension TableSchema {
    var lines: [String] {
        var lines = ["try db.create(table: \"\(name)\") { t in"]
        switch primaryKey {
        case .autoIncremented: lines.append("    t.autoIncrementedPrimaryKey(\"id\")")
        case .integer: lines.append("    t.column(\"id\", .integer).primaryKey()")
        case .composite(let other):
            lines += ["    t.column(\"id\", .integer)", "    t.primaryKey([\"id\", \"\(other)\"])"]
        }
        for column in columns {
            var text = "    t.column(\"\(column.name)\"" + (column.type.map { ", .\($0)" } ?? "") + ")"
            if column.notNull { text += ".notNull()" }
            if column.unique { text += ".unique()" }
            if let value = column.defaultValue { text += ".defaults(to: \(value))" }
            if let table = column.references {
                text += ".references(\"\(table)\"" + (column.onDelete.map { ", onDelete: .\($0)" } ?? "") + ")"
            }
            lines.append(text)
        }
        return lines + ["}"]
    }
}

extension RecordValues: CustomStringConvertible {
    public var description: String {
        let fields = zip(table.columns, values).map { "\($0): \($1)" }.joined(separator: ", ")
        return "\(table == .player ? "Player" : "Team")(\(fields))"
    }
}

extension Filter: CustomStringConvertible {
    public var description: String {
        comparison == .isNull ? "Column(\"\(column)\") == nil" : "Column(\"\(column)\") \(comparison.rawValue) \(value)"
    }
}

extension Query: CustomStringConvertible {
    public var description: String {
        var text = association?.swift ?? (table == .player ? "Player.all()" : "Team.all()")
        if association == .joiningOptionalTeamAliased { text = "let team = TableAlias(); try " + text }
        for filter in filters { text += ".filter(\(filter))" }
        if !orderings.isEmpty {
            text += ".order(" + orderings.map { "Column(\"\($0.column)\")" + ($0.descending ? ".desc" : "") }
                .joined(separator: ", ") + ")"
        }
        if let selection { text += ".select(" + selection.map { "Column(\"\($0)\")" }.joined(separator: ", ") + ")" }
        if distinct { text += ".distinct()" }
        if let limit { text += ".limit(\(limit)" + (offset.map { ", offset: \($0)" } ?? "") + ")" }
        let rows = selection != nil || association.map { !$0.fetchesRecords } ?? false
        switch fetch {
        case .all: text += rows ? ".asRequest(of: Row.self).fetchAll(db)" : ".fetchAll(db)"
        case .one: text += rows ? ".asRequest(of: Row.self).fetchOne(db)" : ".fetchOne(db)"
        case .count: text += ".fetchCount(db)"
        }
        return text
    }
}

extension Step {
    var lines: [String] {
        switch self {
        case let .record(operation, values, conflict):
            let conflictText = conflict.map { ", onConflict: .\($0)" } ?? ""
            switch operation {
            case .updateChanges:
                return ["var record = try \(values.table == .player ? "Player" : "Team")"
                    + ".filter(Column(\"id\") == \(values.values[0])).fetchOne(db)!",
                        "try record.updateChanges(db) { $0 = \(values) /* but the id */ }"]
            case .upsert, .delete, .exists, .upsertAndFetch:
                return ["var record = \(values); try record.\(operation)(db)"]
            default:
                return ["var record = \(values); try record.\(operation)(db\(conflictText))"]
            }
        case let .updateAll(table, filter, column, value):
            return ["try Table(\"\(table)\")" + (filter.map { ".filter(\($0))" } ?? "")
                + ".updateAll(db, Column(\"\(column)\").set(to: \(value)))"]
        case let .deleteAll(table, filter):
            return ["try Table(\"\(table)\")" + (filter.map { ".filter(\($0))" } ?? "") + ".deleteAll(db)"]
        case let .deleteAndFetch(table, filter):
            return ["try \(table == .player ? "Player" : "Team")" + (filter.map { ".filter(\($0))" } ?? ".all()")
                + ".deleteAndFetchAll(db)"]
        case .query(let query):
            let text = "\(query)"
            return [text.hasPrefix("let ") ? text : "try \(text)"]
        case let .sql(sql, values, fetches):
            let call = fetches ? "Row.fetchAll(db, " : "db.execute("
            return ["try \(call)sql: \"\(sql)\", arguments: \(values))"]
        case .fail:
            return ["throw ProgramFailure()"]
        case .adapted(let fetch):
            return fetch.lines
        case .stamp(let step):
            return step.lines
        case .request(let use):
            return use.lines
        case .recordClass(let step):
            return step.lines
        case .aggregate(let use):
            return use.lines
        case let .transaction(steps, end, catches), let .savepoint(steps, end, catches):
            let isTransaction = if case .transaction = self { true } else { false }
            var lines = ["try db.\(isTransaction ? "inTransaction" : "inSavepoint") {"
                + (catches ? " // each step's error is caught" : "")]
            for step in steps { lines += step.lines.map { "    " + $0 } }
            return lines + ["    return .\(end)", "}"]
        case .reopen(let appending):
            return ["// outside of the access: try dbQueue.close(); dbQueue = try DatabaseQueue(path: path) (a pool: "
                    + "the same); db.add(transactionObserver:); \(appending) more `extraN` migrations "
                    + "(db.create(index: \"extraN\", on: \"player\", columns: [\"name\"])) registered after the "
                    + "others; try migrator.migrate(dbQueue)"]
        case let .racingRead(query, writes):
            let fetch = Step.query(query).lines
            var lines = ["// a thread: try dbPool.read { db in",
                         "//     fetch (shown below), signal, wait for the writes",
                         "//     fetch again: the old state }",
                         "// this thread: wait; try dbPool.writeWithoutTransaction { db in try db.inTransaction {"]
            for step in writes { lines += step.lines.map { "    " + $0 } }
            lines += ["} }", "// signal; wait; try dbPool.read { db in fetch }: the new state. The fetch:"]
            return lines + fetch.map { "// " + $0 }
        case let .kindedTransaction(kind, steps, end):
            var lines = ["try db.inTransaction(.\(kind)) { // each step's error is caught"]
            for step in steps { lines += step.lines.map { "    " + $0 } }
            return lines + ["    return .\(end)", "}"]
        }
    }
}

extension Step {
    /// Whether a pool runs the step in `read`: a fetch that writes nothing.
    public var isRead: Bool {
        switch self {
        case .query, .adapted, .request, .aggregate: true
        case .sql(_, _, let fetches): fetches
        default: false
        }
    }
}
