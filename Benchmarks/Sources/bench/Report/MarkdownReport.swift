import Foundation

/// The report as Markdown tables, for stdout and the README.
enum MarkdownReport {
    static func render(_ report: BenchReport) -> String {
        var lines: [String] = []
        let machine = report.machine
        let software = report.software
        lines.append(
            "\(machine.cpu), \(machine.cores) cores, \(machine.memoryBytes >> 30) GiB, \(machine.os). "
                + "SQLite \(software.sqliteVersionBySide[Side.raw.rawValue] ?? "?"), "
                + "Swift \(software.swiftCompiler) (\(software.buildConfiguration) build), GRDB \(software.grdbVersion), \(software.allocator).")
        lines.append("")
        lines.append(
            "Durations in seconds: median (min–max) of \(report.plan.iterations) runs after \(report.plan.warmups) warm-up(s); "
                + "ratios of medians. \(report.fetchRowCount) rows fetched, \(report.insertRowCount) inserted.")
        lines.append("")
        lines.append("| Workload | raw C | GRDBLite | GRDB 7.10 | GRDBLite/raw | GRDB/raw | GRDBLite/GRDB |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|")
        for result in report.workloads {
            let times = Side.allCases.map { side in
                result[side]?.time.map { "\(seconds($0.median)) (\(seconds($0.min))–\(seconds($0.max)))" } ?? "n/a"
            }
            let ratios = [result.ratios.liteToRaw, result.ratios.grdbToRaw, result.ratios.liteToGRDB].map(ratio)
            lines.append("| \(result.title) | " + (times + ratios).joined(separator: " | ") + " |")
        }
        lines.append("")
        if let reason = report.allocationFiguresUnavailable {
            lines.append("Allocation figures: unavailable (\(reason)).")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("Allocations per row and bytes per row, from jemalloc's statistics over one run after the warm-ups.")
        lines.append("")
        lines.append("| Workload | raw C allocs/row | raw C bytes/row | GRDBLite allocs/row | GRDBLite bytes/row | GRDB allocs/row | GRDB bytes/row | GRDBLite target (allocs/row) |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|---|")
        for result in report.workloads {
            let figures = Side.allCases.flatMap { side -> [String] in
                guard let allocations = result[side]?.allocations else { return ["n/a", "n/a"] }
                return [perRow(allocations.allocationsPerRow), perRow(allocations.bytesPerRow)]
            }
            let target = result.liteAllocationTarget.map {
                "≤ \(perRow($0.maximumPerRow)) (\($0.rule)): \($0.isMet ? "met" : "**exceeded**")"
            } ?? "n/a"
            lines.append("| \(result.title) | " + (figures + [target]).joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
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
