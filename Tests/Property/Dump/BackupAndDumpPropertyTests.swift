import Dispatch
import Foundation
import GRDBLite
import PropertyBased
import Testing
import TestSupport

/// Random databases, backed up and dumped: the copy and the replayed dump
/// have the schema and the content of the original (the reference model
/// is the generated case itself).
@Suite struct BackupAndDumpPropertyTests {
    @Test func queueBackupCopiesEverything() async {
        await checkProperty(count: 100, input: DumpGenerators.dumpCase) { testCase in
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let source = try DatabaseQueue(path: directory.path("source.sqlite"))
            try source.write { try testCase.create(in: $0) }
            // The destination has content of its own, which goes away.
            let destination = try DatabaseQueue(path: directory.path("destination.sqlite"))
            try destination.write { try $0.execute(sql: "CREATE TABLE old(a); INSERT INTO old VALUES (1)") }

            try source.backup(to: destination, pagesPerStep: testCase.pagesPerStep)

            try expectContent(destination, testCase)
            try expectContent(source, testCase)
            #expect(try dump(destination) == dump(source))
        }
    }

    @Test func poolBackupIgnoresConcurrentWrites() async {
        await checkProperty(count: 30, input: DumpGenerators.dumpCase) { testCase in
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let source = try DatabasePool(path: directory.path("source.sqlite"))
            try source.write { db in
                try testCase.create(in: db)
                try db.execute(sql: "CREATE TABLE log_a(n); CREATE TABLE log_b(n)")
            }
            let expectedDump = try dump(source)
            let destination = try DatabasePool(path: directory.path("destination.sqlite"))

            // After the first step, other transactions write both logs and
            // random rows, while the backup waits; then it goes on.
            let writeCount = 5
            let startWrites = DispatchSemaphore(value: 0)
            let writesDone = DispatchSemaphore(value: 0)
            let writer = Thread {
                guard startWrites.wait(timeout: .now() + 300) == .success else { return }
                for n in 1...writeCount {
                    try? source.write { db in
                        try db.execute(sql: "INSERT INTO log_a VALUES (?)", arguments: [n])
                        try db.execute(sql: "INSERT INTO log_b VALUES (?)", arguments: [n])
                        for table in testCase.tables {
                            try db.execute(
                                sql: "DELETE FROM \(table.name.quotedDatabaseIdentifier) WHERE id = ?", arguments: [n])
                        }
                    }
                }
                writesDone.signal()
            }
            writer.start()
            var isFirstStep = true
            try source.backup(to: destination, pagesPerStep: 1) { _ in
                if isFirstStep {
                    isFirstStep = false
                    startWrites.signal()
                    guard writesDone.wait(timeout: .now() + 300) == .success else {
                        throw DatabaseError(message: "concurrent writes timed out")
                    }
                }
            }
            if isFirstStep {
                // One step: the backup was over before any write.
                startWrites.signal()
                _ = writesDone.wait(timeout: .now() + 300)
            }

            // The copy is the state before the concurrent writes, whole.
            try expectContent(destination, testCase)
            #expect(try destination.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM log_a") } == 0)
            #expect(try dump(destination) == expectedDump)
            #expect(try source.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM log_b") } == writeCount)
        }
    }

    @Test func replayedDumpGivesBackSchemaAndContent() async {
        await checkProperty(count: 100, input: DumpGenerators.dumpCase) { testCase in
            let source = try DatabaseQueue()
            try source.write { try testCase.create(in: $0) }

            // The schema, from dumpSchema; each row, from dumpSQL with the
            // quote format: the values of an INSERT statement.
            let schema = try output { try source.dumpSchema(to: $0) }
            var script = String(schema.drop { $0 != "\n" })
            for table in testCase.tables {
                let name = table.name.quotedDatabaseIdentifier
                for id in table.rows.indices.map({ $0 + 1 }) {
                    let values = try output {
                        try source.dumpSQL("SELECT * FROM \(sql: name) WHERE id = \(id)", format: .quote(), to: $0)
                    }
                    #expect(values.hasSuffix("\n"))
                    script += "INSERT INTO \(name) VALUES (\(values.dropLast()));\n"
                }
            }

            let replay = try DatabaseQueue()
            try replay.write { try $0.execute(sql: script) }

            try expectContent(replay, testCase)
            #expect(try output { try replay.dumpSchema(to: $0) } == schema)
            #expect(try dump(replay) == dump(source))
        }
    }
}

/// The values of every table of `reader`, compared with the generated ones.
private func expectContent(
    _ reader: some DatabaseReader, _ testCase: DumpCase, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    try reader.read { db in
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'log_%' ORDER BY name")
        #expect(tables == testCase.tables.map(\.name).sorted(), sourceLocation: sourceLocation)
        for table in testCase.tables {
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table.name.quotedDatabaseIdentifier) ORDER BY id")
            #expect(
                rows.map { Array($0.databaseValues.dropFirst()) } == table.rows, "\(table.name)",
                sourceLocation: sourceLocation)
        }
    }
}

/// What `dumpContent` prints, in the exact quote format.
private func dump(_ reader: some DatabaseReader) throws -> String {
    try output { try reader.dumpContent(format: .quote(), to: $0) }
}

private final class StringStream: TextOutputStream {
    var text = ""
    func write(_ string: String) { text += string }
}

private func output(_ body: (StringStream) throws -> Void) rethrows -> String {
    let stream = StringStream()
    try body(stream)
    return stream.text
}
