import Foundation

/// A bar chart of the ratios to raw C (lower is better; raw C is 1×), as a
/// standalone SVG file.
enum SVGChart {
    private static let labelWidth = 230.0
    private static let plotWidth = 520.0
    private static let barHeight = 16.0
    private static let groupHeight = 46.0
    private static let top = 86.0
    private static let bars: [(name: String, color: String, value: @Sendable (WorkloadResult) -> Double?)] = [
        ("GRDBLite / raw C", "#2f7ed8", { $0.ratios.liteToRaw }),
        ("GRDB 7.10 / raw C", "#f28f43", { $0.ratios.grdbToRaw }),
    ]

    static func render(_ report: BenchReport) -> String {
        let values = report.workloads.flatMap { result in bars.compactMap { $0.value(result) } }
        let maximum = max(2, (values.max() ?? 1).rounded(.up))
        let step = maximum <= 5 ? 0.5 : maximum <= 10 ? 1 : maximum <= 20 ? 2 : 5
        let scale = plotWidth / maximum
        let plotBottom = top + Double(report.workloads.count) * groupHeight
        let width = labelWidth + plotWidth + 60
        let height = plotBottom + 50

        var svg: [String] = []
        svg.append(
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(format(width))" height="\##(format(height))" "##
                + ##"viewBox="0 0 \##(format(width)) \##(format(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">"##)
        svg.append(##"<rect width="100%" height="100%" fill="white"/>"##)
        svg.append(##"<text x="10" y="22" font-size="15" font-weight="bold">Time relative to the raw SQLite C API (lower is better)</text>"##)
        svg.append(##"<text x="10" y="40" fill="#555">\##(escape("\(report.fetchRowCount) rows fetched, \(report.insertRowCount) inserted; medians of \(report.plan.iterations) runs; \(report.machine.cpu)"))</text>"##)
        for (index, bar) in bars.enumerated() {
            let x = labelWidth + Double(index) * 170
            svg.append(##"<rect x="\##(format(x))" y="48" width="12" height="12" fill="\##(bar.color)"/>"##)
            svg.append(##"<text x="\##(format(x + 16))" y="58">\##(escape(bar.name))</text>"##)
        }

        // Grid and axis.
        var tick = 0.0
        while tick <= maximum + 1e-9 {
            let x = labelWidth + tick * scale
            svg.append(##"<line x1="\##(format(x))" y1="\##(format(top - 4))" x2="\##(format(x))" y2="\##(format(plotBottom))" stroke="#e3e3e3"/>"##)
            svg.append(##"<text x="\##(format(x))" y="\##(format(plotBottom + 16))" text-anchor="middle" fill="#555">\##(format(tick))×</text>"##)
            tick += step
        }

        for (row, result) in report.workloads.enumerated() {
            let groupTop = top + Double(row) * groupHeight
            svg.append(##"<text x="\##(format(labelWidth - 8))" y="\##(format(groupTop + barHeight + 4))" text-anchor="end">\##(escape(result.title))</text>"##)
            for (index, bar) in bars.enumerated() {
                let y = groupTop + 4 + Double(index) * (barHeight + 2)
                if let value = bar.value(result) {
                    svg.append(
                        ##"<rect x="\##(format(labelWidth))" y="\##(format(y))" width="\##(format(max(1, value * scale)))" height="\##(format(barHeight))" "##
                            + ##"fill="\##(bar.color)"><title>\##(escape(bar.name)): \##(String(format: "%.2f", value))×</title></rect>"##)
                    svg.append(##"<text x="\##(format(labelWidth + value * scale + 4))" y="\##(format(y + barHeight - 4))" font-size="11">\##(String(format: "%.2f", value))×</text>"##)
                } else {
                    svg.append(##"<text x="\##(format(labelWidth + 4))" y="\##(format(y + barHeight - 4))" font-size="11" fill="#888">n/a</text>"##)
                }
            }
        }

        // Raw C, the floor.
        let floor = labelWidth + scale
        svg.append(##"<line x1="\##(format(floor))" y1="\##(format(top - 8))" x2="\##(format(floor))" y2="\##(format(plotBottom))" stroke="#222" stroke-dasharray="4 3"/>"##)
        svg.append(##"<text x="\##(format(floor + 4))" y="\##(format(top - 10))" fill="#222">raw C = 1×</text>"##)
        let footer = "SQLite \(report.software.sqliteVersionBySide["raw"] ?? "?"), Swift \(report.software.swiftCompiler), \(report.date)"
        svg.append(##"<text x="\##(format(labelWidth + plotWidth / 2))" y="\##(format(plotBottom + 36))" text-anchor="middle" fill="#555">\##(escape(footer))</text>"##)
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
