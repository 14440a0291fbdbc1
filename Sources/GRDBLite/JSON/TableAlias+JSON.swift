extension TableAliasBase {
    /// The JSON expression, with its columns qualified by the alias: it
    /// stays a JSON expression (`alias[JSONColumn("info")]["score"]`).
    public subscript(
        _ expression: some SQLJSONExpressible & SQLSpecificExpressible & SQLSelectable & SQLOrderingTerm
    ) -> AnySQLJSONExpressible {
        AnySQLJSONExpressible(sqlExpression: expression.sqlExpression.qualified(with: self))
    }
}

extension TableAlias where RowDecoder: TableRecord {
    /// A JSON column of the record, qualified by the alias:
    /// `alias.info["score"]`.
    public subscript<T: SQLJSONExpressible>(
        dynamicMember keyPath: KeyPath<DatabaseComponents, T>
    ) -> AnySQLJSONExpressible {
        self[RowDecoder.databaseComponents[keyPath: keyPath]]
    }
}
