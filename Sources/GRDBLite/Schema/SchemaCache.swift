/// The introspection results of a connection (columns, primary keys,
/// foreign keys, indexes, schema objects), kept until the schema changes:
/// Core drops it with the other ``SchemaDependentCache``s.
final class SchemaCache: SchemaDependentCache {
    /// A table, in a schema or in any (nil). Names compare as SQLite
    /// compares them.
    struct TableKey: Hashable {
        var schema: CaseInsensitiveIdentifier?
        var table: CaseInsensitiveIdentifier
    }

    /// A table, view, index or trigger of a schema.
    struct SchemaObject: Hashable {
        var type: String
        var name: CaseInsensitiveIdentifier
    }

    var columns: [TableKey: [ColumnInfo]] = [:]
    /// Nil for a view without primary key.
    var primaryKeys: [TableKey: PrimaryKeyInfo?] = [:]
    var foreignKeys: [TableKey: [ForeignKeyInfo]] = [:]
    var indexes: [TableKey: [IndexInfo]] = [:]
    /// The schemas that hold tables, temp first since it shadows the others.
    var schemaNames: [String]?
    /// The objects of each schema, by schema name as in `schemaNames`.
    var schemaObjects: [String: Set<SchemaObject>] = [:]
    /// Names of existing tables, as `tableExists` was asked for them: a
    /// value observation asks for the tables it read after each fetch,
    /// and a comparison of a few names costs less than hashing one.
    var existingTables: [CaseInsensitiveIdentifier] = []

    init() { }
}
