import Foundation

/// A type that can be encoded into database values, column by column.
///
/// ```swift
/// struct Player: EncodableRecord {
///     var id: Int64?
///     var name: String
///     func encode(to container: inout PersistenceContainer) {
///         container["id"] = id
///         container["name"] = name
///     }
/// }
/// ```
///
/// `Encodable` types get `encode(to:)` for free: each coding key writes
/// the column of the same name; nested values that are not database values
/// are stored as JSON text.
public protocol EncodableRecord {
    /// Writes the columns of the record into the container.
    func encode(to container: inout PersistenceContainer) throws

    /// The user info of the `Encoder` that encodes `Encodable` records.
    static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The encoder of nested `Encodable` values stored as JSON in `column`.
    static func databaseJSONEncoder(for column: String) -> JSONEncoder

    /// How `Data` properties are stored in `column`.
    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy

    /// How `Date` properties are stored in `column`.
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy

    /// How `UUID` properties are stored in `column`.
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy

    /// How coding keys map to column names.
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { get }
}

extension EncodableRecord {
    public static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [:] }

    /// A JSON encoder with sorted keys, base64 data and dates in
    /// milliseconds since 1970.
    public static func databaseJSONEncoder(for column: String) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dataEncodingStrategy = .base64
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .throw
        encoder.outputFormatting = .sortedKeys
        encoder.userInfo = databaseEncodingUserInfo.sendableUserInfo
        return encoder
    }

    public static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
        .deferredToData
    }

    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .deferredToDate
    }

    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .deferredToUUID
    }

    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .useDefaultKeys }
}

extension EncodableRecord {
    /// The encoded columns and values of the record.
    public var databaseDictionary: [String: DatabaseValue] {
        get throws {
            let container = try PersistenceContainer(self)
            return Dictionary(zip(container.columns, container.databaseValues), uniquingKeysWith: { $1 })
        }
    }

    /// Whether two records encode the same database values.
    public func databaseEquals(_ record: Self) -> Bool {
        guard let lhs = try? PersistenceContainer(self), let rhs = try? PersistenceContainer(record) else {
            return false
        }
        return lhs.changes(from: rhs).isEmpty
    }

    /// The columns whose values differ between `self` and `record`, with
    /// their values in `record`.
    ///
    /// ```swift
    /// var newPlayer = oldPlayer
    /// newPlayer.score = 1000
    /// try newPlayer.databaseChanges(from: oldPlayer) // ["score": old score]
    /// ```
    public func databaseChanges(from record: some EncodableRecord) throws -> [String: DatabaseValue] {
        let changes = try PersistenceContainer(self).changes(from: PersistenceContainer(record))
        return Dictionary(changes, uniquingKeysWith: { $1 })
    }

    /// Modifies the record, and returns the columns whose values changed,
    /// with their former values.
    ///
    /// ```swift
    /// let changes = try player.databaseChanges { $0.score = 1000 }
    /// ```
    public mutating func databaseChanges(modify: (inout Self) throws -> Void) throws -> [String: DatabaseValue] {
        let old = try PersistenceContainer(self)
        try modify(&self)
        let changes = try PersistenceContainer(self).changes(from: old)
        return Dictionary(changes, uniquingKeysWith: { $1 })
    }
}
