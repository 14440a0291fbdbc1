import ArgumentParser
import Foundation

/// `bench compare BASELINE CURRENT`: the regression report of two
/// `bench instructions` JSON files.
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compares two instruction reports; fails when GRDBLite regresses.",
        discussion: """
            Prints, as Markdown, the change of every figure per workload and side, then GRDBLite's \
            ratio to raw C in instructions per workload. Exits with 1 when that ratio worsens by more \
            than --threshold, or when a GRDBLite allocation count rises; the workloads counted by difference \
            of processes (server-request), whose figures move with the threads' interleaving, fail when \
            the ratio or the allocations worsen by more than --by-difference-threshold; with 2 when the reports \
            can't be compared (other row counts). Improvements are shown, never fail. Figures of \
            the other sides are shown, and never fail either: only GRDBLite is checked.

            The ratio to raw C rather than the count itself: both sides run the same SQLite and \
            glibc, so the ratio keeps GRDBLite's own share and cancels most of what another \
            machine's CPU changes in SQLite's and glibc's code (see the README).

            Another Swift compiler or SQLite moves every count: compare refuses (exit 2) when the \
            reports' Swift compiler or any side's SQLite version or library differ, unless \
            --accept-environment is given. A figure the baseline lacks is unknown: a warning, never \
            a failure.

            The baseline is Benchmarks/baseline.json; after a deliberate change, update it with \
            `Scripts/bench-instructions.sh --quick --output Benchmarks/baseline.json` and commit it.
            """)

    @Argument(help: "The baseline report (Benchmarks/baseline.json).")
    var baseline: String

    @Argument(help: "The current report (bench instructions --output).")
    var current: String

    @Option(help: "The largest worsening of GRDBLite's instruction ratio to raw C that passes, in percent.")
    var threshold = Compare.defaultThreshold

    @Option(
        help:
            "The same, in percent, for the workloads counted by difference of processes (ratio and allocations)."
    )
    var byDifferenceThreshold = Compare.defaultByDifferenceThreshold

    @Flag(help: "Compare even when the Swift compiler or SQLite differs from the baseline's (a warning then).")
    var acceptEnvironment = false

    /// See the README: run-to-run variation of the ratios is under 0.1%,
    /// CPU variants of glibc move them by up to about 1%.
    static let defaultThreshold = 3.0

    /// Three runs of `server-request-write` moved GRDBLite's ratio to raw C
    /// by up to 7.7% (server-request: 1.1%), its allocations by 2.5%.
    static let defaultByDifferenceThreshold = 10.0

    func run() throws {
        let decoder = JSONDecoder()
        let base: InstructionReport
        let now: InstructionReport
        do {
            base = try decoder.decode(InstructionReport.self, from: Data(contentsOf: URL(fileURLWithPath: baseline)))
            now = try decoder.decode(InstructionReport.self, from: Data(contentsOf: URL(fileURLWithPath: current)))
        } catch {
            progress("error: can't read the reports: \(error)")
            throw ExitCode(2)
        }
        let comparison = Comparison(
            baseline: base, current: now, threshold: threshold, byDifferenceThreshold: byDifferenceThreshold,
            acceptsEnvironment: acceptEnvironment)
        printReport(comparison.markdown)
        if let reason = comparison.incomparable {
            progress("error: \(reason)")
            throw ExitCode(2)
        }
        if !comparison.failures.isEmpty {
            progress("GRDBLite regressed:\n  " + comparison.failures.joined(separator: "\n  "))
            throw ExitCode.failure
        }
        progress("No GRDBLite regression beyond \(threshold)% against \(baseline).")
    }
}

/// The comparison of two instruction reports.
struct Comparison {
    var markdown = ""
    /// Why the reports can't be compared, if they can't.
    var incomparable: String?
    /// GRDBLite's regressions.
    var failures: [String] = []

    init(
        baseline: InstructionReport, current: InstructionReport, threshold: Double,
        byDifferenceThreshold: Double = Compare.defaultByDifferenceThreshold, acceptsEnvironment: Bool = false)
    {
        var lines: [String] = []
        lines.append(
            "Baseline: \(baseline.date), \(baseline.machine.cpu), \(baseline.tool); \(baseline.software.sqliteSummary)."
        )
        lines.append("")
        lines.append(
            "Current: \(current.date), \(current.machine.cpu), \(current.tool); \(current.software.sqliteSummary).")
        lines.append("")
        if (baseline.fetchRowCount, baseline.insertRowCount) != (current.fetchRowCount, current.insertRowCount) {
            incomparable =
                "the baseline counts \(baseline.fetchRowCount) rows fetched and \(baseline.insertRowCount) inserted, "
                + "the current report \(current.fetchRowCount) and \(current.insertRowCount): run both in the same mode (--quick)"
            lines.append("**Not comparable**: \(incomparable!).")
            markdown = lines.joined(separator: "\n") + "\n"
            return
        }
        let environment = EnvironmentCheck(baseline: baseline.software, current: current.software)
        for unknown in environment.unknowns {
            lines.append("**Warning**: \(unknown): the counts may have moved for that reason alone.")
            lines.append("")
        }
        if !environment.differences.isEmpty {
            let differences = environment.differences.joined(separator: "; ")
            if acceptsEnvironment {
                lines.append("**Warning** (accepted with --accept-environment): \(differences).")
                lines.append("")
            } else {
                incomparable =
                    "\(differences): every count may move for that reason alone. Compare reports of the same "
                    + "toolchain and SQLite, or pass --accept-environment (then regenerate the baseline)"
                lines.append("**Not comparable**: \(incomparable!).")
                lines.append("")
            }
        }
        if baseline.guestCPU != current.guestCPU {
            lines.append(
                "**Warning**: the CPU seen under valgrind differs (baseline: \(baseline.guestCPU ?? "unknown"); "
                    + "current: \(current.guestCPU ?? "unknown")): glibc's string functions may differ, "
                    + "which moved GRDBLite's ratios by up to 2.8% in a simulation (see the README).")
            lines.append("")
        }
        if baseline.environment != current.environment {
            lines.append(
                "Note: the environments differ (baseline \(baseline.environment), current \(current.environment)).")
            lines.append("")
        }

        // GRDBLite's ratio to raw C: the check.
        let key = Ratio.key(.lite, .raw)
        lines.append(
            "GRDBLite's instructions relative to raw C (fails above +\(Self.percent(threshold)); allocations fail when they rise; "
                + "workloads counted by difference of processes: both fail above +\(Self.percent(byDifferenceThreshold))):"
        )
        lines.append("")
        lines.append("| Workload | Baseline | Current | Change | GRDBLite allocations/row | Verdict |")
        lines.append("|---|---:|---:|---:|---:|---|")
        for result in current.workloads {
            guard let old = baseline.workloads.first(where: { $0.workload == result.workload }) else {
                lines.append("| \(result.title) | n/a | \(Self.ratio(result.ratios[key])) | | | new workload |")
                continue
            }
            var verdicts: [String] = []
            var change = ""
            // Counted by difference of processes, the figures move with the
            // threads' interleaving: they have a threshold of their own, for
            // the ratio and the allocations.
            let byDifference = old.sides[.lite]?.byDifference == true || result.sides[.lite]?.byDifference == true
            let threshold = byDifference ? byDifferenceThreshold : threshold
            if let before = old.ratios[key], let after = result.ratios[key] {
                let delta = (after / before - 1) * 100
                change = Self.signedPercent(delta)
                if delta > threshold {
                    verdicts.append("**regression** (> +\(Self.percent(threshold)))")
                    failures.append(
                        "\(result.workload): GRDBLite/raw C \(Self.ratio(before)) → \(Self.ratio(after)) (\(change))")
                } else if delta < -threshold {
                    verdicts.append("improvement")
                }
            } else if old.ratios[key] != nil {
                verdicts.append("**GRDBLite or raw C missing**")
                failures.append("\(result.workload): no GRDBLite/raw C ratio in the current report")
            }
            var allocationsCell = ""
            if let before = old.sides[.lite]?.allocations, let after = result.sides[.lite]?.allocations {
                allocationsCell =
                    "\(MarkdownReport.perRow(before.allocationsPerRow)) → \(MarkdownReport.perRow(after.allocationsPerRow))"
                let tolerated = byDifference ? Double(before.allocations) * threshold / 100 : 0
                if Double(after.allocations) > Double(before.allocations) + tolerated {
                    verdicts.append("**more allocations** (+\(after.allocations - before.allocations))")
                    failures.append(
                        "\(result.workload): GRDBLite allocates \(after.allocations) times, \(after.allocations - before.allocations) more than the baseline's \(before.allocations)"
                    )
                } else if after.allocations < before.allocations {
                    verdicts.append("fewer allocations (−\(before.allocations - after.allocations))")
                }
            }
            let verdict = verdicts.isEmpty ? "ok" : verdicts.joined(separator: "; ")
            lines.append(
                "| \(result.title) | \(Self.ratio(old.ratios[key])) | \(Self.ratio(result.ratios[key])) | \(change) | \(allocationsCell) | \(verdict) |"
            )
        }
        for old in baseline.workloads where !current.workloads.contains(where: { $0.workload == old.workload }) {
            lines.append("| \(old.title) | \(Self.ratio(old.ratios[key])) | n/a | | | not measured |")
        }
        lines.append("")

        // Every figure, for the record.
        lines.append("Instructions per row and allocations per row, every side (shown, not checked but for GRDBLite):")
        lines.append("")
        lines.append("| Workload | Side | Instructions/row | Change | Allocations/row |")
        lines.append("|---|---|---:|---:|---:|")
        for result in current.workloads {
            let old = baseline.workloads.first { $0.workload == result.workload }
            for side in result.sides where side.instructions != nil {
                let before = old?.sides[side.side]
                let count = [before?.instructionsPerRow, side.instructionsPerRow].map {
                    $0.map { String(format: "%.0f", $0) } ?? "n/a"
                }
                var change = ""
                if let a = before?.instructionsPerRow, let b = side.instructionsPerRow, a > 0 {
                    change = Self.signedPercent((b / a - 1) * 100)
                }
                let allocations = [before?.allocations, side.allocations].map {
                    $0.map { MarkdownReport.perRow($0.allocationsPerRow) } ?? "n/a"
                }
                lines.append(
                    "| \(result.title) | \(side.side.title) | \(count[0]) → \(count[1]) | \(change) | \(allocations[0]) → \(allocations[1]) |"
                )
            }
        }
        lines.append("")
        lines.append(failures.isEmpty
                ? "**No GRDBLite regression** beyond +\(Self.percent(threshold)) in instructions relative to raw C, and no new allocation."
            : "**GRDBLite regressed** in \(failures.count) figure(s).")
        markdown = lines.joined(separator: "\n") + "\n"
    }

    static func ratio(_ value: Double?) -> String {
        value.map { String(format: "%.3f×", $0) } ?? "n/a"
    }

    static func percent(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))%" : String(format: "%.1f%%", value)
    }

    static func signedPercent(_ value: Double) -> String {
        String(format: "%+.2f%%", value)
    }
}

/// What the counts depend on besides GRDBLite: the Swift compiler and each
/// side's SQLite, compared between two reports.
struct EnvironmentCheck {
    /// What differs: compare refuses unless told to accept it.
    var differences: [String] = []
    /// What the baseline doesn't say (an older report): warnings.
    var unknowns: [String] = []

    init(baseline: SoftwareInfo, current: SoftwareInfo) {
        switch (baseline.swiftCompiler, current.swiftCompiler) {
        case (SoftwareInfo.unknown, _), (_, SoftwareInfo.unknown):
            unknowns.append(
                "the Swift compiler is unknown (baseline: \(baseline.swiftCompiler); current: \(current.swiftCompiler))")
        case let (old, new) where old != new:
            differences.append("the Swift compiler differs (baseline: \(old); current: \(new))")
        default:
            break
        }
        for side in Side.allCases {
            guard let new = current.sqliteBySide[side.rawValue] else { continue }
            guard let old = baseline.sqliteBySide[side.rawValue] else {
                unknowns.append("the baseline doesn't say which SQLite \(side.title) ran on (current: \(new.version))")
                continue
            }
            if (old.version, old.library) != (new.version, new.library) {
                differences.append(
                    "\(side.title)'s SQLite differs (baseline: \(old.version), \(old.library); "
                        + "current: \(new.version), \(new.library))")
            }
        }
    }
}
