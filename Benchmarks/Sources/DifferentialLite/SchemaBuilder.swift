#if DIFFERENTIAL_GRDB
import GRDB
#else
import GRDBLite
#endif
import DifferentialProgram

/// Creates a program's schema with the schema DSL.
enum SchemaBuilder {
    /// Runs the migrations: in a `DatabaseMigrator`, or one after the other.
    static func create(_ schema: Schema, in writer: any DatabaseWriter) throws {
        if schema.usesMigrator {
            var migrator = DatabaseMigrator()
            for (index, migration) in schema.migrations.enumerated() {
                migrator.registerMigration("v\(index + 1)") { db in try apply(migration, db) }
            }
            try migrator.migrate(writer)
        } else {
            try writer.writeWithoutTransaction { db in
                for migration in schema.migrations { try apply(migration, db) }
            }
        }
    }

    /// Migrates a database opened again: the schema's migrations, if it
    /// has a migrator, then `extras` extra migrations, an index each.
    static func migrateAgain(_ schema: Schema, extras: Int, in writer: any DatabaseWriter) throws {
        var migrator = DatabaseMigrator()
        if schema.usesMigrator {
            for (index, migration) in schema.migrations.enumerated() {
                migrator.registerMigration("v\(index + 1)") { db in try apply(migration, db) }
            }
        }
        for number in 0..<extras {
            migrator.registerMigration("extra\(number + 1)") { db in
                try db.create(index: "extra\(number + 1)", on: "player", columns: ["name"])
            }
        }
        try migrator.migrate(writer)
    }

    static func apply(_ migration: Migration, _ db: Database) throws {
        for table in migration.tables { try create(table, db) }
        for index in migration.indexes {
            try db.create(index: index.name, on: index.table.rawValue, columns: index.columns, unique: index.unique)
        }
    }

    static func create(_ table: TableSchema, _ db: Database) throws {
        try db.create(table: table.name.rawValue) { t in
            switch table.primaryKey {
            case .autoIncremented: t.autoIncrementedPrimaryKey("id")
            case .integer: t.column("id", .integer).primaryKey()
            case .composite(let other):
                t.column("id", .integer)
                t.primaryKey(["id", other])
            }
            for column in table.columns {
                let definition = t.column(column.name, column.type.map(databaseType))
                if column.notNull { definition.notNull() }
                if column.unique { definition.unique() }
                if let value = column.defaultValue { definition.defaults(to: value.databaseValue) }
                if let destination = column.references {
                    definition.references(destination.rawValue, onDelete: column.onDelete.map(action))
                }
            }
        }
    }

    static func databaseType(_ type: ColumnType) -> Database.ColumnType {
        switch type {
        case .integer: .integer
        case .text: .text
        case .real: .double
        case .datetime: .datetime
        case .any: .any
        }
    }

    static func action(_ action: DeleteAction) -> Database.ForeignKeyAction {
        switch action {
        case .cascade: .cascade
        case .setNull: .setNull
        case .restrict: .restrict
        }
    }
}
