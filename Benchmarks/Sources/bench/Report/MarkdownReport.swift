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
