import Foundation

/// The files of `--output DIR`.
enum ReportFiles {
    /// Writes `report.json`, `report.md` and `ratios.svg` in `folder`, and
    /// `latency.svg` when the report has latency workloads; returns their
    /// paths.
    static func write(_ report: BenchReport, to folder: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = { (name: String) in (folder as NSString).appendingPathComponent(name) }
        try writeJSON(report, to: path("report.json"))
        try Data(MarkdownReport.render(report).utf8).write(to: URL(fileURLWithPath: path("report.md")))
        try Data(SVGChart.render(report).utf8).write(to: URL(fileURLWithPath: path("ratios.svg")))
        var files = ["report.json", "report.md", "ratios.svg"]
        if let latencyChart = LatencyChart.render(report) {
            try Data(latencyChart.utf8).write(to: URL(fileURLWithPath: path("latency.svg")))
            files.append("latency.svg")
        }
        return files.map(path)
    }
}
