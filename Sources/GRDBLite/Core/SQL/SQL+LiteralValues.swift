import Foundation

// Schema statements (CREATE TABLE, CREATE INDEX, CREATE VIEW) can't have
// parameters: their values are written into the SQL as literals.

extension DatabaseValue {
    /// The value as an SQL literal: `NULL`, `42`, `1.5`, `'O''Brien'`,
    /// `X'0102'`.
    var sqlLiteral: String {
        switch storage {
        case .null:
            return "NULL"
        case .int64(let value):
            return String(value)
        case .double(let value):
            if value.isNaN { return "NULL" } // SQLite stores NaN as NULL
            if value.isInfinite { return value < 0 ? "-9e999" : "9e999" }
            return "\(value)" // shortest representation that reads back exactly
        case .string(let value):
            if value.utf8.contains(0) {
                // A quoted string would end at the NUL character.
                return "(CAST(\(Self.hexLiteral(Data(value.utf8))) AS TEXT))"
            }
            guard value.utf8.contains(0x27) else { return "'" + value + "'" }
            return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let value):
            return Self.hexLiteral(value)
        }
    }

    private static func hexLiteral(_ data: Data) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "X"), UInt8(ascii: "'")]
        bytes.reserveCapacity(data.count * 2 + 3)
        for byte in data {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        bytes.append(UInt8(ascii: "'"))
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension SQL {
    /// The SQL, with values written as literals.
    ///
    /// - throws: A ``DatabaseError`` if raw SQL has arguments.
    func literalSQL(_ db: Database) throws -> String {
        try sql(SQLGenerationContext(db, literalValues: true))
    }
}

extension SQLExpression {
    /// The SQL of the expression, with values written as literals.
    func literalSQL(_ db: Database) throws -> String {
        try sql(SQLGenerationContext(db, literalValues: true))
    }
}
