import DifferentialGRDB
import DifferentialLite
import DifferentialProgram
import Foundation

/// Runs programs on both libraries, in a temporary folder.
final class Runner {
    let folder: URL
    private var runs = 0

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("differential-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func removeFolder() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The outcomes of the program on GRDBLite, then on GRDB.
    func outcomes(_ program: Program) -> (lite: Outcome, grdb: Outcome) {
        runs += 1
        let lite = folder.appendingPathComponent("lite-\(runs).sqlite").path
        let grdb = folder.appendingPathComponent("grdb-\(runs).sqlite").path
        let outcomes = (DifferentialLite.run(program, path: lite), DifferentialGRDB.run(program, path: grdb))
        for path in [lite, grdb] {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        }
        return outcomes
    }

    func differences(_ program: Program, verbose: Bool = false) -> [Difference] {
        let (lite, grdb) = outcomes(program)
        if verbose {
            for (lite, grdb) in zip(lite.steps, grdb.steps) {
                print("\(lite.path): \(lite.expandedSQL)\n  -> \(lite.result)\n  GRDB -> \(grdb.result)")
            }
        }
        return Difference.between(lite: lite, grdb: grdb)
    }

    /// Shrinks the program while it keeps a difference of the first unknown
    /// one's kind, and prints the smallest with its differences.
    func report(_ program: Program, _ unknown: [Difference]) {
        let kind = unknown[0].kind
        let shrunk = Shrinker.shrink(program) { candidate in
            differences(candidate).contains { $0.kind == kind && KnownDifference.match($0) == nil }
        }
        let remaining = differences(shrunk).filter { KnownDifference.match($0) == nil }
        print("""

            ==== difference: program seed \(program.seed), \(kind) (replay: Scripts/differential.sh \
            --seed \(program.seed) --programs 1)
            Shrunk from \(program.steps.count) steps to \(shrunk.steps.count):
            \(shrunk)
            \(remaining.map(\.description).joined(separator: "\n"))

            """)
    }
}
