import Foundation
import PropertyBased
import Testing

/// Settings of the property suites, read from the environment.
///
/// - `GRDBLITE_SEED=<seed>`: replays one case. The seed is the string that a
///   failure prints in ``.fixedSeed("...")``. Use it with `--filter` to run
///   the test that failed: every property check of the run uses the seed.
/// - `GRDBLITE_SOAK=<n>`: multiplies the number of cases by `n`, for a long
///   soak run.
enum PropertySettings {
    static let seed: String? = ProcessInfo.processInfo.environment["GRDBLITE_SEED"]
        .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"() ")) }
        .flatMap { $0.isEmpty ? nil : $0 }

    static let soak: Int = ProcessInfo.processInfo.environment["GRDBLITE_SOAK"]
        .flatMap { Int($0) }
        .map { max(1, $0) } ?? 1
}

/// Runs `body` with `count` inputs (times `GRDBLITE_SOAK`), or once with the
/// input of `GRDBLITE_SEED`. An error thrown by `body` fails the input.
///
/// On failure, PropertyBased shrinks the input and prints the shrunk input
/// and the seed of the original one:
///
///     Failure occured with input ....
///     Add `.fixedSeed("mY0Z...=")` to the Test to reproduce this issue.
///
/// Replay with `GRDBLITE_SEED='mY0Z...=' swift test --filter <test>`, or by
/// adding the trait to the test.
func checkProperty<Input, Shrunk: Sequence>(
    count: Int,
    input: Generator<Input, Shrunk>,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (Input) async throws -> Void) async
{
    let count = count * PropertySettings.soak
    let firstError = FirstError()
    // PropertyBased counts recorded issues only, and drops an error thrown
    // by the body: record it, or a property that throws would pass.
    func recordingErrors(_ input: Input) async {
        do {
            try await body(input)
        } catch {
            print("checkProperty: \(error)")
            firstError.keep(error)
            Issue.record(error, sourceLocation: sourceLocation)
        }
    }
    // PropertyBased suppresses the issues of the failing run and records
    // those of a last run of the shrunk input: when that run passes (a
    // timing failure), its issue names the input only. This one says why
    // the first run failed.
    defer {
        if let error = firstError.error {
            Issue.record("The first failing run threw: \(error)", sourceLocation: sourceLocation)
        }
    }
    guard let seed = PropertySettings.seed else {
        await propertyCheck(count: count, input: input, perform: recordingErrors, sourceLocation: sourceLocation)
        return
    }
    guard let rng = Xoshiro(seed: seed), let test = Test.current else {
        Issue.record(
            "GRDBLITE_SEED is not a seed printed by a failing property: \(seed)", sourceLocation: sourceLocation)
        return
    }
    // The same trait as `.fixedSeed(...)`, built from the environment: it
    // runs one case, with this seed, and reports an issue if it passes.
    let state = rng.currentState
    let trait = FixedSeedTrait.fixedSeed(state.0, state.1, state.2, state.3, sourceLocation: sourceLocation)
    await trait.provideScope(for: test, testCase: Test.Case.current) {
        await propertyCheck(count: count, input: input, perform: recordingErrors, sourceLocation: sourceLocation)
    }
}

/// The first error thrown by a property's runs.
private final class FirstError: @unchecked Sendable {
    // @unchecked Sendable: `stored` is only used under `lock`.
    private let lock = NSLock()
    private var stored: (any Error)?

    var error: (any Error)? { lock.withLock { stored } }

    func keep(_ error: any Error) {
        lock.withLock { if stored == nil { stored = error } }
    }
}

/// Compares two logs, and reports the first difference with some context,
/// so that a failure of a long script stays readable.
func expectSameLog(
    _ actual: [String],
    _ expected: [String],
    _ what: String = "log",
    sourceLocation: SourceLocation = #_sourceLocation)
{
    guard actual != expected else { return }
    let index =
        zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(actual.count, expected.count)
    let start = max(0, index - 8)
    func excerpt(_ log: [String]) -> String {
        log[min(start, log.count)..<min(index + 4, log.count)].enumerated()
            .map { "  \(start + $0.offset == index ? ">" : " ") \(start + $0.offset): \($0.element)" }
            .joined(separator: "\n")
    }
    Issue.record("""
        \(what) differs at entry \(index) (\(actual.count) entries, \(expected.count) expected)
        actual:
        \(excerpt(actual))
        expected (model):
        \(excerpt(expected))
        """, sourceLocation: sourceLocation)
}
