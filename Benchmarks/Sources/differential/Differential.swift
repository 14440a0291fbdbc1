import ArgumentParser
import DifferentialGRDB
import DifferentialLite
import DifferentialProgram
import Foundation

/// Runs random programs on GRDBLite and on GRDB 7.10, and compares what a
/// user observes (issue 47).
@main
struct Differential: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Random GRDB programs, run on GRDBLite and on GRDB 7.10, compared step by step.",
        discussion: "Program i runs from seed S+i; `--seed P --programs 1` (or GRDBLITE_SEED=P) replays program P.")

    @Option(help: "How many programs (default: 1000, or 1 with a seed).")
    var programs: Int?

    @Option(help: "The first program's seed (default: GRDBLITE_SEED, or random).")
    var seed: UInt64?

    @Option(help: "How many differing programs are shrunk; the others are only listed by seed.")
    var shrinkLimit = 10

    @Flag(help: "Print each program, and both outcomes' steps.")
    var verbose = false

    @Flag(help: "Print each known difference, with its entry.")
    var showKnown = false

    @Flag(help: "Check the known differences' matchers on their examples and near misses, and exit.")
    var selfTest = false

    func run() throws {
        if selfTest {
            let failures = KnownDifferenceTests.run()
            for failure in failures { print("self-test: \(failure)") }
            print("differential self-test: \(KnownDifferenceTests.count) checks, \(failures.count) failed")
            if !failures.isEmpty { throw ExitCode.failure }
            return
        }
        let environmentSeed = ProcessInfo.processInfo.environment["GRDBLITE_SEED"].flatMap { UInt64($0) }
        let firstSeed = seed ?? environmentSeed ?? UInt64.random(in: 0...UInt64(UInt32.max))
        let count = programs ?? (seed ?? environmentSeed == nil ? 1000 : 1)
        print("differential: \(count) programs from seed \(firstSeed)")
        let runner = try Runner()
        defer { runner.removeFolder() }
        var differing = 0
        var known = 0
        var knownCounts: [String: Int] = [:]
        for offset in 0..<UInt64(count) {
            let program = Generator.program(seed: firstSeed &+ offset)
            if verbose { print(program) }
            let differences = runner.differences(program, verbose: verbose)
            guard !differences.isEmpty else { continue }
            differing += 1
            let unknown = differences.filter { KnownDifference.match($0) == nil }
            if unknown.isEmpty {
                known += 1
                for name in Set(differences.compactMap { KnownDifference.match($0)?.name }) {
                    knownCounts[name, default: 0] += 1
                }
                if showKnown {
                    for difference in differences {
                        print("known (\(KnownDifference.match(difference)?.name ?? "")), program seed \(program.seed), "
                              + "\(difference)")
                    }
                }
                continue
            }
            if differing - known <= shrinkLimit {
                runner.report(program, unknown)
            } else {
                print("difference: program seed \(program.seed), \(unknown[0].kind) (not shrunk: --shrink-limit)")
            }
        }
        for (name, programs) in knownCounts.sorted(by: { $0.key < $1.key }) {
            print("known: \(name): \(programs) programs")
        }
        let share = count == 0 ? 0 : Double(known) * 100 / Double(count)
        print("differential: \(count) programs, \(differing) differences (\(known) known: "
              + "\(String(format: "%.1f", share))% of programs)")
        if differing > known { throw ExitCode.failure }
    }
}
