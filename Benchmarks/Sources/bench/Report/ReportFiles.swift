import Foundation

/// The files of `--output DIR`.
enum ReportFiles {
    /// Writes `report.json`, `report.md` and `ratios.svg` in `folder`, and
    /// returns their paths.
    static func write(_ report: BenchReport, to folder: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = { (name: String) in (folder as NSString).appendingPathComponent(name) }
        try writeJSON(report, to: path("report.json"))
        try Data(MarkdownReport.render(report).utf8).write(to: URL(fileURLWithPath: path("report.md")))
        try Data(SVGChart.render(report).utf8).write(to: URL(fileURLWithPath: path("ratios.svg")))
        return ["report.json", "report.md", "ratios.svg"].map(path)
    }
}
