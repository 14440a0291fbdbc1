/// A cache that a layer above Core keeps in each connection: the schema
/// layer's introspection results (`SchemaCache`), the record layer's
/// prepared INSERT statements (`RecordStorage`).
///
/// Core knows nothing of their content: it keeps one instance of each type,
/// hands it back with its type (``Database/cache(_:)``), and drops them all
/// when their content may be stale: after a statement that changes the
/// schema or rolls back, in ``Database/clearSchemaCache()``, and when the
/// connection closes (`dropCachesAfterSchemaChange()` drops the cached
/// statements too).
protocol SchemaDependentCache: AnyObject {
    init()
}

extension Database {
    /// The connection's instance of a cache type, created on first use.
    @inline(__always)
    func cache<Cache: SchemaDependentCache>(_ type: Cache.Type) -> Cache {
        for cache in schemaDependentCaches where Swift.type(of: cache) == Cache.self {
            // Unsafe: the type was checked just above.
            return unsafeDowncast(cache, to: Cache.self)
        }
        return makeCache(type)
    }

    /// Creates the connection's instance of a cache type. Outlined: the
    /// lookup runs for each inserted record, the creation once.
    @inline(never)
    func makeCache<Cache: SchemaDependentCache>(_ type: Cache.Type) -> Cache {
        let cache = Cache()
        schemaDependentCaches.append(cache)
        return cache
    }

    /// Forgets everything the layers above Core derived from the schema.
    func dropSchemaDependentCaches() {
        schemaDependentCaches.removeAll()
    }

    /// Forgets what may be stale once the schema may have changed: the
    /// layers' caches, and the cached statements (SQLite recompiles them,
    /// but they would keep the column count and names they had).
    func dropCachesAfterSchemaChange() {
        dropSchemaDependentCaches()
        statementCache.removeAll()
    }
}
