import Foundation
import PropertyBased

/// What a clock script does besides transactions.
enum ClockAction: String, Sendable, CustomStringConvertible {
    /// `try db.transactionDate`.
    case readDate
    /// Inserts a `Stamp`, whose `willInsert` sets its creation and
    /// modification dates from `db.transactionDate`, as GRDB's record
    /// timestamps do.
    case insertStamp
    /// Reads the transaction date once, and sets it as the modification
    /// date of all stamps with `updateChanges`.
    case touchStamps
    /// `SELECT COUNT(*) FROM stamp`.
    case countStamps

    var description: String { rawValue }
}

/// The injected clock: the k-th call returns `start + k × step`
/// milliseconds, or fails if k is in `failingCalls`.
struct ClockSpec: Sendable, CustomStringConvertible {
    var startMilliseconds: Int64
    var stepMilliseconds: Int64
    var failingCalls: Set<Int>

    func date(call: Int) -> Date {
        Date(timeIntervalSince1970: Double(startMilliseconds + Int64(call) * stepMilliseconds) / 1000)
    }

    /// "#k" for the date of call k.
    func label(of date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded()) - startMilliseconds
        if milliseconds >= 0, milliseconds % stepMilliseconds == 0 {
            let call = Int(milliseconds / stepMilliseconds)
            if self.date(call: call) == date { return "#\(call)" }
        }
        return "\(date) (not from the clock)"
    }

    var description: String {
        "clock: \(date(call: 0)) + k × \(stepMilliseconds) ms, failing calls: \(failingCalls.sorted())"
    }
}

struct ClockError: ScriptError, Equatable {
    var call: Int
    var logDescription: String { "clock error #\(call)" }
}

struct ClockCase: Sendable, CustomStringConvertible {
    var clock: ClockSpec
    var script: Script<ClockAction>

    var description: String { "\(clock)\(script)" }
}

struct ClockActions: ScriptActionGenerator {
    /// Not zero-sized: Swift gives every zero-sized variable one shared
    /// address, and Thread Sanitizer takes the `inout` accesses of test cases
    /// generated in parallel for a data race.
    private var padding: UInt8 = 0

    func action(_ r: inout Rand, readOnly: Bool) -> ClockAction {
        if readOnly { return r.weighted([(3, .readDate), (1, .countStamps)]) }
        return r.weighted([(4, .readDate), (3, .insertStamp), (1, .touchStamps), (1, .countStamps)])
    }

    func shrink(_ action: ClockAction) -> [ClockAction] {
        action == .insertStamp || action == .touchStamps ? [.readDate] : []
    }
}

enum ClockGenerators {
    static var clockCase: Generator<ClockCase, [ClockCase]> {
        generator(
            run: { r in
                let clock = ClockSpec(
                    // Dates at millisecond precision, across centuries.
                    startMilliseconds: Int64.random(in: -30_000_000_000_000...30_000_000_000_000, using: &r),
                    stepMilliseconds: Int64(r.pick([1, 7, 1000, 86_400_000])),
                    failingCalls: r.chance(0.3) ? Set((0..<r.int(1...3)).map { _ in r.int(0...25) }) : [])
                var actions = ClockActions()
                return ClockCase(clock: clock, script: ScriptGenerators.makeScript(&r, &actions, accesses: 1...8))
            },
            shrink: { testCase in
                var candidates = ScriptGenerators.shrink(testCase.script, ClockActions()).map {
                    ClockCase(clock: testCase.clock, script: $0)
                }
                for call in testCase.clock.failingCalls {
                    var simpler = testCase
                    simpler.clock.failingCalls.remove(call)
                    candidates.append(simpler)
                }
                return candidates
            })
    }
}
