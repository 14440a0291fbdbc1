import Foundation

/// The reports as Markdown tables, for stdout and the README.
enum MarkdownReport {
    static func render(_ report: BenchReport) -> String {
        var lines: [String] = []
        lines.append(environment(machine: report.machine, software: report.software))
        lines.append("")
        lines.append(
            "Durations in seconds: median (min–max) of \(report.plan.iterations) runs after \(report.plan.warmups) warm-up(s); "
                + "ratios of medians. \(report.fetchRowCount) rows fetched, \(report.insertRowCount) inserted.")
        lines.append("")
        let sides = presentSides(report.workloads.map(\.sides))
        let pairs = ratioPairs(sides)
        lines.append(
            header(["Workload"] + sides.map(\.title) + pairs.map(Ratio.title), numeric: sides.count + pairs.count))
        for result in report.workloads {
            let times = sides.map { side in
                result[side]?.time.map { "\(seconds($0.median)) (\(seconds($0.min))–\(seconds($0.max)))" } ?? "n/a"
            }
            let ratios = pairs.map { ratio(result.ratios[Ratio.key($0.0, $0.1)]) }
            lines.append("| \(result.title) | " + (times + ratios).joined(separator: " | ") + " |")
        }
        lines.append(contentsOf: apiNote(report.workloads.map { ($0.title, $0.sides.map { ($0.side, $0.api) }) }))
        lines.append(contentsOf: latencyTables(report, sides: sides))
        lines.append(contentsOf: comparisons(report, sides: sides))
        lines.append("")
        if let reason = report.allocationFiguresUnavailable {
            lines.append("Allocation figures: unavailable (\(reason)).")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("Allocations per row (bytes per row), from jemalloc's statistics over one run after the warm-ups.")
        lines.append("")
        lines.append(header(["Workload"] + sides.map(\.title) + ["GRDBLite target (allocs/row)"], numeric: sides.count))
        for result in report.workloads {
            let figures = sides.map { side in allocations(result[side]?.allocations) }
            let target = result.liteAllocationTarget.map {
                "≤ \(perRow($0.maximumPerRow)) (\($0.rule)): \($0.isMet ? "met" : "**exceeded**")"
            } ?? "n/a"
            lines.append("| \(result.title) | " + (figures + [target]).joined(separator: " | ") + " |")
        }
        if report.workloads.contains(where: { $0.sides.contains { $0.allocations?.approximate == true } }) {
            lines.append("")
            lines.append(
                "≈: the work runs on other threads, whose thread caches jemalloc counts late (a few hundred allocations per run either way); bytes are counted per thread."
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The instruction counts, and allocations of the same runs.
    static func render(_ report: InstructionReport) -> String {
        var lines: [String] = []
        lines.append(environment(machine: report.machine, software: report.software))
        lines.append("")
        lines.append(
            "Instructions per row: callgrind's count of one measured run after one warm-up, every thread included "
                + "(\(report.tool); the CPU the program sees under valgrind: \(report.guestCPU ?? "unknown")). "
                + "\(report.fetchRowCount) rows fetched, \(report.insertRowCount) inserted.")
        lines.append("")
        let sides = presentSides(report.workloads.map(\.sides))
        let pairs = ratioPairs(sides)
        lines.append(
            header(["Workload"] + sides.map(\.title) + pairs.map(Ratio.title), numeric: sides.count + pairs.count))
        for result in report.workloads {
            let counts = sides.map { side in
                result.sides[side]?.instructionsPerRow.map { String(format: "%.0f", $0) } ?? "n/a"
            }
            let ratios = pairs.map { pair in
                result.ratios[Ratio.key(pair.0, pair.1)].map { String(format: "%.3f×", $0) } ?? "n/a"
            }
            lines.append("| \(result.title) | " + (counts + ratios).joined(separator: " | ") + " |")
        }
        lines.append(contentsOf: apiNote(report.workloads.map { ($0.title, $0.sides.map { ($0.side, $0.api) }) }))
        lines.append("")
        lines.append("Allocations per row (bytes per row) of the same runs, from jemalloc's statistics.")
        lines.append("")
        lines.append(header(["Workload"] + sides.map(\.title), numeric: sides.count))
        for result in report.workloads {
            let figures = sides.map { side in
                result.sides[side].map { $0.instructions == nil ? "n/a" : allocations($0.allocations) } ?? "n/a"
            }
            lines.append("| \(result.title) | " + figures.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The tables of the latency groups (``LatencyGroup``): one row per
    /// workload and side.
    static func latencyTables(_ report: BenchReport, sides: [Side]) -> [String] {
        var lines: [String] = []
        let method =
            "percentiles of every latency of the \(report.plan.iterations) measured runs, pooled "
            + "(nearest rank), in milliseconds on `ContinuousClock`"
        let server = report.workloads.filter { $0.latencyGroup == .server }
        if !server.isEmpty {
            lines.append("")
            lines.append(
                "Server requests: T tasks make R requests each, one after the other (R × T the same in every "
                    + "workload); a request's latency runs from its enqueueing to its result; \(method). "
                    + "Requests per second: all requests over the summed durations of the runs. Allocations per "
                    + "request: one run after the warm-ups, approximate (≈: the requests run on many threads, whose "
                    + "thread caches jemalloc counts late), not checked.")
            lines.append("")
            lines.append(
                header(
                    ["Workload", "Side", "requests/s", "p50 (ms)", "p99 (ms)", "p99.9 (ms)", "max (ms)",
                     "allocs/request"],
                    numeric: 6))
            for result in server {
                for side in sides {
                    guard let figures = result[side], let latency = figures.latency else { continue }
                    let rate = latency.requestsPerSecond.map { String(format: "%.0f", $0) } ?? "n/a"
                    lines.append(
                        "| \(result.workload) | \(side.title) | \(rate) | "
                            + milliseconds(latency).joined(separator: " | ")
                            + " | \(allocations(figures.allocations)) |")
                }
            }
        }
        let observation = report.workloads.filter { $0.latencyGroup == .observation }
        if !observation.isEmpty {
            lines.append("")
            lines.append(
                "Observation latency: from a commit (the end of the `write` closure) to each observation's "
                    + "notification, one commit at a time; \(method).")
            lines.append("")
            lines.append(header(["Workload", "Side", "p50 (ms)", "p99 (ms)", "p99.9 (ms)", "max (ms)"], numeric: 4))
            for result in observation {
                for side in sides {
                    guard let latency = result[side]?.latency else { continue }
                    lines.append(
                        "| \(result.workload) | \(side.title) | " + milliseconds(latency).joined(separator: " | ") + " |")
                }
            }
        }
        return lines
    }

    /// The workloads compared with another (``WorkloadResult/comparedWith``:
    /// Litestream's cost), and those skipped.
    static func comparisons(_ report: BenchReport, sides: [Side]) -> [String] {
        var lines: [String] = []
        let compared = report.workloads.compactMap { result in
            report.workloads.first { $0.workload == result.comparedWith }.map { (result, $0) }
        }
        if !compared.isEmpty {
            lines.append("")
            lines.append(
                "Litestream's cost: the same job on a WAL file of its own, without and with `litestream replicate` "
                    + "beside it (monitor and sync every 100 ms, a `file` replica); durations in seconds, median "
                    + "(min–max), and the ratio of the medians.")
            lines.append("")
            lines.append("| Workload | Side | without | with | with/without |\n|---|---|---:|---:|---:|")
            for (result, baseline) in compared {
                for side in sides {
                    guard let with = result[side]?.time, let without = baseline[side]?.time else { continue }
                    let figures = [without, with].map {
                        "\(seconds($0.median)) (\(seconds($0.min))–\(seconds($0.max)))"
                    }
                    lines.append(
                        "| \(result.workload) | \(side.title) | " + figures.joined(separator: " | ")
                            + " | \(ratio(with.median / without.median)) |")
                }
            }
        }
        for skipped in report.skippedWorkloads ?? [] {
            lines.append("")
            lines.append("\(skipped.workload): skipped: \(skipped.reason).")
        }
        return lines
    }

    static func milliseconds(_ latency: LatencyStatistics) -> [String] {
        [latency.p50, latency.p99, latency.p999, latency.max].map { String(format: "%.3f", $0 * 1000) }
    }

    /// One line for the progress log.
    static func latencySummary(_ latency: LatencyStatistics) -> String {
        let values = milliseconds(latency)
        let rate = latency.requestsPerSecond.map { String(format: "%.0f requests/s, ", $0) } ?? ""
        return rate + "p50 \(values[0]) ms, p99 \(values[1]) ms, p99.9 \(values[2]) ms, max \(values[3]) ms"
    }

    static func environment(machine: MachineInfo, software: SoftwareInfo) -> String {
        let peers = software.peers.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "\(machine.cpu), \(machine.cores) cores, \(machine.memoryBytes >> 30) GiB, \(machine.os). "
            + "Swift \(software.swiftCompiler) (\(software.buildConfiguration) build); \(peers); \(software.allocator). "
            + software.sqliteSummary + "."
    }

    /// The sides of the results, in report order.
    static func presentSides<S: SideFigures>(_ sides: [[S]]) -> [Side] {
        let present = Set(sides.joined().map(\.side))
        return Side.allCases.filter(present.contains)
    }

    static func ratioPairs(_ sides: [Side]) -> [(Side, Side)] {
        Ratio.pairs.filter { sides.contains($0.0) && sides.contains($0.1) }
    }

    /// The APIs of the sides that have several, per workload.
    static func apiNote(_ workloads: [(title: String, apis: [(Side, String?)])]) -> [String] {
        var lines: [String] = []
        for side in Side.allCases {
            var titlesByAPI: [(String, [String])] = []
            for workload in workloads {
                guard let api = workload.apis.first(where: { $0.0 == side })?.1 else { continue }
                if let index = titlesByAPI.firstIndex(where: { $0.0 == api }) {
                    titlesByAPI[index].1.append(workload.title)
                } else {
                    titlesByAPI.append((api, [workload.title]))
                }
            }
            if !titlesByAPI.isEmpty {
                let uses = titlesByAPI.map { "\($0.0) for \($0.1.joined(separator: ", "))" }.joined(separator: "; ")
                lines.append("")
                lines.append("\(side.title): \(uses).")
            }
        }
        return lines
    }

    static func header(_ titles: [String], numeric: Int) -> String {
        let alignments =
            ["---"] + Array(repeating: "---:", count: numeric)
            + Array(repeating: "---", count: titles.count - 1 - numeric)
        return "| " + titles.joined(separator: " | ") + " |\n|" + alignments.joined(separator: "|") + "|"
    }

    static func allocations(_ figures: AllocationFigures?) -> String {
        guard let figures else { return "n/a" }
        let count = (figures.approximate == true ? "≈" : "") + perRow(figures.allocationsPerRow)
        return figures.bytesPerRow.map { "\(count) (\(perRow($0)))" } ?? count
    }

    static func seconds(_ value: Double) -> String {
        String(format: "%.4f", value)
    }

    static func ratio(_ value: Double?) -> String {
        value.map { String(format: "%.2f×", $0) } ?? "n/a"
    }

    static func perRow(_ value: Double) -> String {
        if value == 0 { return "0" }
        if value < 0.01 { return String(format: "%.4f", value) }
        if value < 10 { return String(format: "%.3f", value) }
        return String(format: "%.1f", value)
    }
}
