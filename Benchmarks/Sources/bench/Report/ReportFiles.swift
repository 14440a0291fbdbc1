import Foundation

/// The files of `--output DIR`.
enum ReportFiles {
    /// Writes `report.json`, `report.md` and `ratios.svg` in `folder`, and
    /// returns their paths.
    static func write(_ report: BenchReport, to folder: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let files: [(String, Data)] = [
            ("report.json", try encoder.encode(report) + Data("\n".utf8)),
            ("report.md", Data(MarkdownReport.render(report).utf8)),
            ("ratios.svg", Data(SVGChart.render(report).utf8)),
        ]
        return try files.map { name, data in
            let path = (folder as NSString).appendingPathComponent(name)
            try data.write(to: URL(fileURLWithPath: path))
            return path
        }
    }
}
