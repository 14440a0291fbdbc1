import CSQLite
import Foundation

// UUIDs are stored as 16-byte blobs (GRDB's default). They are read from
// 16-byte blobs and from text in the standard form
// ("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", any case).
extension UUID: DatabaseValueConvertible, StatementColumnConvertible {
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_BLOB:
            guard let bytes = DatabaseValue.blobBytes(sqliteStatement, index), bytes.count == 16 else { return nil }
            self.init(uuid: bytes.loadUnaligned(as: uuid_t.self))
        case SQLITE_TEXT:
            guard let string = String(sqliteStatement: sqliteStatement, index: index),
                  let uuid = UUID(uuidString: string)
            else { return nil }
            self = uuid
        default:
            return nil
        }
    }

    public var databaseValue: DatabaseValue {
        // unsafe bytes of the uuid tuple: alive for the call, copied into Data.
        withUnsafeBytes(of: uuid) { DatabaseValue(storage: .blob(Data($0))) }
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UUID? {
        switch dbValue.storage {
        case .blob(let data) where data.count == 16:
            // unsafe bytes: alive for the call; 16 bytes were checked above.
            data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        case .string(let string):
            UUID(uuidString: string)
        default:
            nil
        }
    }
}

// NSUUID is stored and read as `UUID`.
extension NSUUID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        (self as UUID).databaseValue
    }

    /// An NSUUID (not a subclass, which gives nil).
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        UUID.fromDatabaseValue(dbValue).flatMap { ($0 as NSUUID) as? Self }
    }
}
