import Foundation

// A `Decodable` type gets `fromDatabaseValue` by declaring the conformance
// to `DatabaseValueConvertible`, as in GRDB:
//
//     struct Name: Decodable, DatabaseValueConvertible {
//         var databaseValue: DatabaseValue { ... }
//         // fromDatabaseValue: inferred
//     }
//
// A value that decodes from a single value container reads the database
// value itself (text, number, blob); a value that needs a keyed or an
// unkeyed container (a struct, an array, a dictionary) is read from JSON
// text or a blob of JSON, with `databaseJSONDecoder()`. A value that does
// not convert is nil.

extension DatabaseValueConvertible where Self: Decodable {
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        do {
            return try Self(from: DatabaseValueDecoder(dbValue: dbValue))
        } catch is JSONRepresentationRequired {
            let data: Data
            switch dbValue.storage {
            case .string(let string): data = Data(string.utf8)
            case .blob(let blob): data = blob
            default: return nil
            }
            return try? databaseJSONDecoder().decode(Self.self, from: data)
        } catch {
            return nil
        }
    }
}

extension DatabaseValueConvertible where Self: Decodable & RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    /// The raw value's conversion, not `Decodable`'s.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(dbValue).flatMap(Self.init(rawValue:))
    }
}

/// Thrown by the single-value coders when a value wants a keyed or an
/// unkeyed container: it is stored as JSON instead.
struct JSONRepresentationRequired: Error { }

/// Decodes a value from one database value, through a single value
/// container.
private struct DatabaseValueDecoder: Decoder, SingleValueDecodingContainer {
    let dbValue: DatabaseValue
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw JSONRepresentationRequired()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw JSONRepresentationRequired()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { dbValue.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard let convertible = T.self as? any DatabaseValueConvertible.Type else {
            // A wrapper of another value: it decodes from the same value.
            return try T(from: self)
        }
        guard let value = convertible.fromDatabaseValue(dbValue) else {
            throw DecodingError.typeMismatch(T.self, DecodingError.Context(
                codingPath: [],
                debugDescription: "could not decode \(T.self) from database value \(dbValue)"))
        }
        // The dynamic type is T: `convertible` is T.self.
        return value as! T
    }
}
