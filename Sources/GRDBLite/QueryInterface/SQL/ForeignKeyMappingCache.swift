/// The column mappings of the foreign keys that associations use, found in
/// the schema once per connection: `author.request(for: Author.books)`
/// doesn't look for the foreign key of `book` at each fetch.
///
/// A schema-dependent cache: dropped when the schema changes, and by
/// `clearSchemaCache()`.
final class ForeignKeyMappingCache: SchemaDependentCache {
    struct Lookup: Hashable {
        var originTable: String
        var destinationTable: String
        /// The columns of the user's foreign key, if any.
        var originColumns: [String]?
        var destinationColumns: [String]?

        init(originTable: String, destinationTable: String, foreignKey: ForeignKey?) {
            self.originTable = originTable
            self.destinationTable = destinationTable
            originColumns = foreignKey?.originColumns
            destinationColumns = foreignKey?.destinationColumns
        }
    }

    private var mappings: [Lookup: [(origin: String, destination: String)]] = [:]

    init() { }

    /// The mapping of the key, found by `find` the first time.
    func mapping(
        _ key: Lookup,
        find: () throws -> [(origin: String, destination: String)]) rethrows -> [(origin: String, destination: String)]
    {
        if let mapping = mappings[key] { return mapping }
        let mapping = try find()
        mappings[key] = mapping
        return mapping
    }
}
