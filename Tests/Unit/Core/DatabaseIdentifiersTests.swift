import Foundation
import Testing
import GRDBLite

/// The GRDB spellings of errors, configuration and identifiers.
@Suite struct DatabaseIdentifiersTests {
    @Test func collationAndFunctionIDs() {
        let lower = DatabaseCollation("byLength") { _, _ in .orderedSame }
        let upper = DatabaseCollation("BYLENGTH") { _, _ in .orderedSame }
        #expect(lower.id == upper.id)
        #expect(lower.id != DatabaseCollation("other") { _, _ in .orderedSame }.id)
        #expect(Set([lower.id, upper.id]).count == 1)

        let one = DatabaseFunction("f", argumentCount: 1) { _ in nil }
        #expect(one.id == DatabaseFunction("F", argumentCount: 1) { _ in nil }.id)
        #expect(one.id != DatabaseFunction("f", argumentCount: 2) { _ in nil }.id)
        #expect(one.id != DatabaseFunction("f") { _ in nil }.id)
    }

    @Test func databaseErrorsBridgeToNSError() throws {
        let error = try #require(coreThrownError {
            try DatabaseQueue().write { try $0.execute(sql: "SELECT * FROM missing") }
        } as? DatabaseError)
        #expect(DatabaseError.errorDomain == "GRDB.DatabaseError")
        #expect(error.errorCode == 1)
        #expect(error.errorUserInfo[NSLocalizedDescriptionKey] as? String == error.description)
        #expect(error.errorUserInfo[NSLocalizedFailureReasonErrorKey] as? String == "no such table: missing")
        let nsError = error as NSError
        #expect(nsError.domain == "GRDB.DatabaseError")
        #expect(nsError.code == 1)
        #expect(!error.isInterruptionError)
        #expect(DatabaseError(resultCode: .SQLITE_INTERRUPT).isInterruptionError)
        #expect(DatabaseError(resultCode: .SQLITE_ABORT).isInterruptionError)
    }

    @Test func qualityOfService() {
        var configuration = Configuration()
        #expect(configuration.qos == .userInitiated)
        #expect(configuration.readQoS == .userInitiated)
        #expect(configuration.writeQoS == .userInitiated)
        configuration.qos = .utility
        #expect(configuration.readQoS == .utility)
        #expect(configuration.writeQoS == .utility)
        configuration.targetQueue = DispatchQueue(label: "target", qos: .background)
        #expect(configuration.readQoS == .background)
        #expect(configuration.writeQoS == .background)
        configuration.writeTargetQueue = DispatchQueue(label: "writer", qos: .utility)
        #expect(configuration.readQoS == .background)
        #expect(configuration.writeQoS == .utility)
    }

    @Test func storagesAndRegionsCompare() {
        #expect(DatabaseValue.Storage.int64(1) == .int64(1))
        #expect(DatabaseValue.Storage.int64(1) != .double(1))
        #expect(1.databaseValue == 1.0.databaseValue, "values compare as SQLite does, storages don't")
        #expect(DatabaseValue.Storage.string("a") != .blob(Data("a".utf8)))
        #expect(DatabaseValue.Storage.null == .null)
        #expect(DatabaseRegion.fullDatabase == .fullDatabase)
        #expect(DatabaseRegion() != .fullDatabase)
    }
}
