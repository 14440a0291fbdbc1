// Fetching the records of a table, all of them or by key: the requests of
// `all()`, `filter(key:)` and `filter(keys:)`, as in GRDB, whose statements
// the query interface caches by shape (`RequestShapeCache`).

extension FetchableRecord where Self: TableRecord {
    /// A cursor over all records of the table.
    public static func fetchCursor(_ db: Database) throws -> RecordCursor<Self> {
        try all().fetchCursor(db)
    }

    /// All records of the table.
    ///
    /// ```swift
    /// let players = try Player.fetchAll(db) // SELECT * FROM player
    /// ```
    @inlinable
    public static func fetchAll(_ db: Database) throws -> [Self] {
        try fetchAll(allStatement(db))
    }

    /// The statement of `all()`, from the query interface's cache. Fetched
    /// by an inlinable method, the records are decoded by code specialized
    /// for their type (`all()` has no adapter, nor prefetched rows).
    @usableFromInline
    static func allStatement(_ db: Database) throws -> Statement {
        try all().makePreparedRequest(db, forSingleResult: false).statement
    }

    /// The first record of the table, or nil.
    ///
    /// ```swift
    /// let player = try Player.fetchOne(db) // SELECT * FROM player LIMIT 1
    /// ```
    public static func fetchOne(_ db: Database) throws -> Self? {
        try all().fetchOne(db)
    }

    // MARK: Primary keys

    /// A cursor over the records with these primary keys.
    public static func fetchCursor(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws
        -> RecordCursor<Self>
    {
        try all().filter(keys: keys).fetchCursor(db)
    }

    /// The records with these primary keys, in no particular order.
    public static func fetchAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> [Self] {
        if keys.isEmpty { return [] }
        return try fetchCursor(db, keys: keys)._fetchAll()
    }

    /// The record with this primary key, or nil.
    ///
    /// ```swift
    /// let player = try Player.fetchOne(db, key: 1)
    /// let country = try Country.fetchOne(db, key: "FR")
    /// ```
    public static func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Self? {
        let dbValue = key.databaseValue
        if dbValue.isNull { return nil }
        return try all().filter(keys: [dbValue]).fetchOne(db)
    }

    /// The record with this primary key, or throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)``.
    public static func find(_ db: Database, key: some DatabaseValueConvertible) throws -> Self {
        guard let record = try fetchOne(db, key: key) else {
            throw recordNotFound(db, key: key)
        }
        return record
    }

    // MARK: Unique keys

    /// A cursor over the records with these unique keys.
    public static func fetchCursor(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws
        -> RecordCursor<Self>
    {
        try all().filter(keys: keys).fetchCursor(db)
    }

    /// The records with these unique keys: `[["email": "a@example.com"]]`.
    public static func fetchAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> [Self] {
        if keys.isEmpty { return [] }
        return try fetchCursor(db, keys: keys)._fetchAll()
    }

    /// The record with this unique key, or nil.
    public static func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]?) throws -> Self? {
        guard let key else { return nil }
        return try all().filter(keys: [key]).fetchOne(db)
    }

    /// The record with this unique key, or throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)``.
    public static func find(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Self {
        guard let record = try fetchOne(db, key: key) else {
            throw recordNotFound(key: key)
        }
        return record
    }
}

extension FetchableRecord where Self: TableRecord & Hashable {
    /// A set of all records of the table.
    public static func fetchSet(_ db: Database) throws -> Set<Self> {
        try Set(fetchCursor(db))
    }

    /// A set of the records with these primary keys.
    public static func fetchSet(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Set<
        Self
    > {
        if keys.isEmpty { return [] }
        return try Set(fetchCursor(db, keys: keys))
    }

    /// A set of the records with these unique keys.
    public static func fetchSet(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Set<Self> {
        if keys.isEmpty { return [] }
        return try Set(fetchCursor(db, keys: keys))
    }
}

extension FetchableRecord where Self: TableRecord & Identifiable, ID: DatabaseValueConvertible {
    /// A cursor over the records with these ids.
    public static func fetchCursor(_ db: Database, ids: some Collection<ID>) throws -> RecordCursor<Self> {
        try fetchCursor(db, keys: ids)
    }

    /// The records with these ids, in no particular order.
    public static func fetchAll(_ db: Database, ids: some Collection<ID>) throws -> [Self] {
        try fetchAll(db, keys: ids)
    }

    /// The record with this id, or nil.
    public static func fetchOne(_ db: Database, id: ID) throws -> Self? {
        try fetchOne(db, key: id)
    }

    /// The record with this id, or throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)``.
    ///
    /// ```swift
    /// let player = try Player.find(db, id: 1)
    /// ```
    public static func find(_ db: Database, id: ID) throws -> Self {
        try find(db, key: id)
    }
}

extension FetchableRecord where Self: TableRecord & Identifiable & Hashable, ID: DatabaseValueConvertible {
    /// A set of the records with these ids.
    public static func fetchSet(_ db: Database, ids: some Collection<ID>) throws -> Set<Self> {
        try fetchSet(db, keys: ids)
    }
}
