import GRDBLite

/// Makes a struct or a final class a record of the database: it reads and
/// writes its stored properties, in declaration order, as columns of the
/// same names.
///
/// ```swift
/// @DatabaseRecord
/// struct Player {
///     var id: Int64?
///     var name: String
///     @DatabaseColumn("score_total") var score: Int
///     @DatabaseTransient var rank = 0
/// }
/// ```
///
/// The macro generates a `Columns` enum (unless the type declares one),
/// `databaseTableName` (`table`, or the type name with a lowercased first
/// letter), `databaseSelection` (the columns, in declaration order),
/// `init(row:)` (reads the row by index in that order: fetch through the
/// query interface, or select the columns in that order),
/// `encode(to:)`, and the `FetchableRecord` and `PersistableRecord`
/// conformances. A struct with a `var id` of an optional integer type is a
/// `MutablePersistableRecord` whose `didInsert` sets `id` to the new rowid;
/// a final class sets it from `PersistableRecord.didInsert`.
///
/// Columns hold any `DatabaseValueConvertible` value or optional;
/// `@DatabaseJSON` stores a `Codable` value as JSON text. Enums,
/// protocols, actors and non-final classes are compile-time errors, and so
/// is a `let` with an initial value (not transient): it can't be decoded.
@attached(member, names: named(init(row:)))
@attached(
    extension,
    conformances: FetchableRecord, PersistableRecord, MutablePersistableRecord,
    names: named(Columns), named(databaseTableName), named(databaseSelection), named(init(row:)),
    named(encode(to:)), named(didInsert))
public macro DatabaseRecord(table: String? = nil) =
    #externalMacro(module: "GRDBLiteMacrosPlugin", type: "DatabaseRecordMacro")

/// Stores a property of a `@DatabaseRecord` in the column `name` instead of
/// the column named as the property.
@attached(peer)
public macro DatabaseColumn(_ name: String) =
    #externalMacro(module: "GRDBLiteMacrosPlugin", type: "DatabaseColumnMacro")

/// Keeps a property of a `@DatabaseRecord` out of the database: it is
/// neither read nor written, and takes its default value when fetched.
@attached(peer)
public macro DatabaseTransient() =
    #externalMacro(module: "GRDBLiteMacrosPlugin", type: "DatabaseTransientMacro")

/// Stores a `Codable` property of a `@DatabaseRecord` as JSON text (NULL
/// for nil), with the record's `databaseJSONEncoder(for:)` and
/// `databaseJSONDecoder(for:)`.
@attached(peer)
public macro DatabaseJSON() =
    #externalMacro(module: "GRDBLiteMacrosPlugin", type: "DatabaseJSONMacro")
