/// The identifier of an SQLite schema: `main`, `temp`, or an attached
/// database (see <https://sqlite.org/lang_naming.html>).
public struct DatabaseSchemaID: Hashable, Sendable {
    /// The name of the schema, as SQL refers to it (`main`, `temp`, or the
    /// name given to `ATTACH DATABASE`).
    public let name: String

    private init(uncheckedName name: String) {
        self.name = name
    }

    /// A schema of the given name: `main` and `temp` are the main and
    /// temporary schemas, other names are attached databases.
    init(name: String) {
        self.init(uncheckedName: name)
    }

    /// The main schema.
    public static let main = DatabaseSchemaID(uncheckedName: "main")

    /// The schema of temporary objects.
    public static let temp = DatabaseSchemaID(uncheckedName: "temp")

    /// An attached database.
    public static func attached(_ name: String) -> DatabaseSchemaID {
        DatabaseSchemaID(uncheckedName: name)
    }

    /// The table that describes the schema (`sqlite_master`,
    /// `sqlite_temp_master`, `name.sqlite_master`).
    public var schemaTableName: String {
        switch name {
        case "main": "sqlite_master"
        case "temp": "sqlite_temp_master"
        default: "\(name).sqlite_master"
        }
    }
}

/// The identifier of a table, view, index or trigger: its name and its
/// schema.
public struct DatabaseObjectID: Hashable, Sendable {
    /// The name of the object.
    public var name: String

    /// The schema of the object.
    public var schemaID: DatabaseSchemaID

    public init(name: String, schemaID: DatabaseSchemaID) {
        self.name = name
        self.schemaID = schemaID
    }
}
