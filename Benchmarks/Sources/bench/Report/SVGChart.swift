import Foundation

/// A bar chart of the ratios to raw C (lower is better; raw C is 1×), as a
/// standalone SVG file. The axis is logarithmic: the sides span from about
/// 1× to tens of times raw C, and a ratio reads as a distance from the 1×
/// line whatever its size. Workloads without a raw C side (value
/// observation) have no ratio to chart: they are named under the chart.
enum SVGChart {
    /// The label column is as wide as the longest title needs, at least this.
    private static let minimumLabelWidth = 230.0
    /// An upper bound of the width of a character at the labels' 12 px.
    private static let characterWidth = 6.8
    private static let plotWidth = 600.0
    private static let barHeight = 14.0
    private static let barGap = 2.0
    private static let top = 92.0
    private static let bars: [(side: Side, color: String)] = [
        (.lite, "#2f7ed8"),
        (.grdb, "#f28f43"),
        (.vapor, "#6c9a3b"),
    ]

    static func render(_ report: BenchReport) -> String {
        let present = MarkdownReport.presentSides(report.workloads.map(\.sides))
        let shown = bars.filter { present.contains($0.side) }
        let groupHeight = Double(shown.count) * (barHeight + barGap) + 14
        let hasRatio = { (result: WorkloadResult) in shown.contains { result.ratios[Ratio.key($0.side, .raw)] != nil } }
        let workloads = report.workloads.filter(hasRatio)
        let left = report.workloads.filter { !hasRatio($0) }.map(\.workload)
        let labelWidth = max(
            minimumLabelWidth,
            (Double(workloads.map(\.title.count).max() ?? 0) * characterWidth + 16).rounded(.up))
        let values = workloads.flatMap { result in shown.compactMap { result.ratios[Ratio.key($0.side, .raw)] } }
        // The axis: 1-2-5 ticks from 0.5× (or lower) to above the largest ratio.
        let ticks = axisTicks(minimum: min(0.5, values.min() ?? 1), maximum: max(2, values.max() ?? 1))
        let low = log10(ticks.first!)
        let high = log10(ticks.last!)
        func x(_ value: Double) -> Double {
            labelWidth + (log10(max(value, ticks.first!)) - low) / (high - low) * plotWidth
        }
        let plotBottom = top + Double(workloads.count) * groupHeight
        let width = labelWidth + plotWidth + 70
        let height = plotBottom + 66

        var svg: [String] = []
        svg.append(
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(format(width))" height="\##(format(height))" "##
                + ##"viewBox="0 0 \##(format(width)) \##(format(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">"##
        )
        svg.append(##"<rect width="100%" height="100%" fill="white"/>"##)
        svg.append(
            ##"<text x="10" y="22" font-size="15" font-weight="bold">Time relative to the raw SQLite C API (lower is better; logarithmic axis)</text>"##
        )
        let subtitle =
            "\(report.fetchRowCount) rows fetched, \(report.insertRowCount) inserted; medians of \(report.plan.iterations) runs; \(report.machine.cpu)"
        svg.append(##"<text x="10" y="40" fill="#555">\##(escape(subtitle))</text>"##)
        for (index, bar) in shown.enumerated() {
            let legendX = labelWidth + Double(index) * 190
            svg.append(##"<rect x="\##(format(legendX))" y="52" width="12" height="12" fill="\##(bar.color)"/>"##)
            svg.append(##"<text x="\##(format(legendX + 16))" y="62">\##(escape(bar.side.title + " / raw C"))</text>"##)
        }

        // Grid and axis.
        for tick in ticks {
            let tickX = x(tick)
            svg.append(
                ##"<line x1="\##(format(tickX))" y1="\##(format(top - 4))" x2="\##(format(tickX))" y2="\##(format(plotBottom))" stroke="#e3e3e3"/>"##
            )
            svg.append(
                ##"<text x="\##(format(tickX))" y="\##(format(plotBottom + 16))" text-anchor="middle" fill="#555">\##(label(tick))</text>"##
            )
        }

        let floor = x(1)
        for (row, result) in workloads.enumerated() {
            let groupTop = top + Double(row) * groupHeight
            let labelY = groupTop + 4 + Double(shown.count) * (barHeight + barGap) / 2 + 4
            svg.append(
                ##"<text x="\##(format(labelWidth - 8))" y="\##(format(labelY))" text-anchor="end">\##(escape(result.title))</text>"##
            )
            for (index, bar) in shown.enumerated() {
                let y = groupTop + 4 + Double(index) * (barHeight + barGap)
                let name = "\(bar.side.title) / raw C"
                guard let value = result.ratios[Ratio.key(bar.side, .raw)] else {
                    svg.append(
                        ##"<text x="\##(format(floor + 4))" y="\##(format(y + barHeight - 3))" font-size="11" fill="#888">\##(escape(bar.side.title)): n/a</text>"##
                    )
                    continue
                }
                let end = x(value)
                let barX = min(floor, end)
                let barWidth = max(1, abs(end - floor))
                let text = String(format: "%.2f×", value)
                svg.append(
                    ##"<rect x="\##(format(barX))" y="\##(format(y))" width="\##(format(barWidth))" height="\##(format(barHeight))" "##
                        + ##"fill="\##(bar.color)"><title>\##(escape(name)): \##(text)</title></rect>"##)
                svg.append(
                    ##"<text x="\##(format(max(floor, end) + 4))" y="\##(format(y + barHeight - 3))" font-size="11">\##(text)</text>"##
                )
            }
        }

        // Raw C, the floor.
        svg.append(
            ##"<line x1="\##(format(floor))" y1="\##(format(top - 8))" x2="\##(format(floor))" y2="\##(format(plotBottom))" stroke="#222" stroke-dasharray="4 3"/>"##
        )
        svg.append(##"<text x="\##(format(floor + 4))" y="\##(format(top - 10))" fill="#222">raw C = 1×</text>"##)
        var footer = "\(report.software.sqliteSummary). Swift \(report.software.swiftCompiler), \(report.date)"
        if !left.isEmpty {
            footer += ". Not charted, having no raw C side: " + left.joined(separator: ", ")
        }
        let footerLines = wrap(footer, width: 130)
        for (index, line) in footerLines.enumerated() {
            svg.append(
                ##"<text x="10" y="\##(format(plotBottom + 36 + Double(index) * 14))" fill="#555" font-size="11">\##(escape(line))</text>"##
            )
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// 1-2-5 ticks covering `minimum...maximum`.
    static func axisTicks(minimum: Double, maximum: Double) -> [Double] {
        let all = (-2...4).flatMap { exponent in [1.0, 2, 5].map { $0 * pow(10, Double(exponent)) } }
        let first = all.last { $0 <= minimum } ?? all[0]
        let last = all.first { $0 >= maximum } ?? all[all.count - 1]
        return all.filter { $0 >= first && $0 <= last }
    }

    private static func label(_ tick: Double) -> String {
        (tick == tick.rounded() ? String(Int(tick)) : String(format: "%g", tick)) + "×"
    }

    private static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + word.count + 1 > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
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
