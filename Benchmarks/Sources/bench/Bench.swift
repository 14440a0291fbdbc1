import ArgumentParser
import Foundation

/// The benchmark: GRDB's performance workloads on the raw SQLite C API
/// (the floor), GRDBLite, GRDB 7.10 and Vapor's SQLite stack, in one
/// process, on the same database files.
@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract:
            "Measures GRDBLite against the raw SQLite C API, GRDB 7.10 and Vapor's SQLite stack (SQLiteNIO, SQLiteKit).",
        subcommands: [Run.self, Instructions.self, Compare.self],
        defaultSubcommand: Run.self)
}

/// The options that choose what to measure, shared by `run` and
/// `instructions`.
struct Selection: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Run only the workloads whose name contains one of these words (comma-separated or repeated).",
        valueName: "words"))
    var filter: [String] = []

    @Option(name: .customLong("side"), help: ArgumentHelp(
        "Run only these sides (repeated): \(Side.allCases.map(\.rawValue).joined(separator: ", ")).",
        valueName: "side"))
    var sides: [Side] = []

    @Flag(help: ArgumentHelp(
        "Also run the Litestream workloads (litestream-off-*, litestream-on-*): the cost of a replicating sidecar.",
        discussion: "Skipped, with the reason, when Litestream isn't installed (Scripts/install-litestream.sh)."))
    var litestream = false

    @Option(help: "Rows fetched by the fetch workloads.")
    var rows: Int?

    @Option(help: "Rows inserted by the insert workloads (default a quarter of --rows).")
    var insertRows: Int?

    @Option(help: ArgumentHelp(
            "The folder of the database files (default: a new temporary folder, removed at the end). A fetch file with the right rows is reused.",
        valueName: "folder"))
    var path: String?

    func validate() throws {
        for (name, value) in [("--rows", rows), ("--insert-rows", insertRows)] {
            if let value, value < 1 { throw ValidationError("\(name) must be at least 1") }
        }
        if selectedWorkloads.isEmpty {
            throw ValidationError(
                "--filter \(filter.joined(separator: ",")) matches no workload (\(Workload.all.map(\.name).joined(separator: ", "))"
                    + "; the litestream-* ones need --litestream)")
        }
    }

    var selectedWorkloads: [Workload] {
        let words = filter.flatMap { $0.split(separator: ",") }.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        let workloads = Workload.all.filter { litestream || !$0.needsLitestream }
        if words.isEmpty { return workloads }
        return workloads.filter { workload in words.contains { workload.name.contains($0) } }
    }

    var selectedSides: [Side] {
        sides.isEmpty ? Side.allCases : Side.allCases.filter(sides.contains)
    }

    func fetchRowCount(default value: Int) -> Int { rows ?? value }

    func insertRowCount(default value: Int) -> Int { insertRows ?? max(1, fetchRowCount(default: value) / 4) }
}

/// The SQLite of each side, asked through its own connection. The sides
/// that share the system SQLite must agree.
func sqliteInfoBySide(_ sides: [Side], fixture: Fixture) throws -> [String: SQLiteInfo] {
    var infos: [String: SQLiteInfo] = [:]
    for side in sides {
        infos[side.rawValue] = try side.implementation.sqliteInfo(fixture: fixture)
    }
    let systemVersions = Set(infos.values.filter { $0.library.hasPrefix("system") }.map(\.version))
    if systemVersions.count > 1 {
        throw BenchError("the sides on the system SQLite don't see the same version: \(infos)")
    }
    return infos
}

/// Prints a report on stdout, and flushes it: stdout is buffered when it
/// is not a terminal, stderr never is, so without the flush a progress
/// line written after the report ("Wrote …") would land inside it when
/// both streams go to the same place.
func printReport(_ text: String) {
    print(text, terminator: "")
    fflush(nil) // every output stream: `stdout` is a global Swift 6 refuses
}

/// Progress and warnings go to stderr, the report to stdout.
func progress(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
