extension Database {
    /// Whether `columns` hold a unique key of `table`: its primary key, or
    /// the columns of a unique index (or a superset of them).
    public func table(_ tableName: String, hasUniqueKey columns: some Collection<String>) throws -> Bool {
        let columns = Set(columns.map { $0.lowercased() })
        let primaryKey = try self.primaryKey(tableName)
        if Set(primaryKey.columns.map { $0.lowercased() }).isSubset(of: columns) {
            return true
        }
        for index in try Row.fetchAll(self, sql: "PRAGMA index_list(\(tableName.quotedDatabaseIdentifier))")
        where (index["unique"] as Int?) == 1
        {
            let name: String = index["name"]
            let indexColumns = try String?.fetchAll(self, sql: "SELECT name FROM pragma_index_info(?)", arguments: [name])
            if indexColumns.allSatisfy({ $0 != nil }), Set(indexColumns.compactMap { $0?.lowercased() }).isSubset(of: columns) {
                return true
            }
        }
        return false
    }
}
