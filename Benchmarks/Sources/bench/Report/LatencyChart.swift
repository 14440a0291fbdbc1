import Foundation

/// A chart of the latency percentiles of the latency workloads (the server
/// requests and the observation latency), as a standalone SVG file beside
/// `ratios.svg`: one row per workload and side, with three bars from the
/// same origin, p99.9 (palest), p99 and p50 (darkest), in the side's color.
/// The axis is logarithmic, in milliseconds: the sides and percentiles
/// span several orders of magnitude. Shorter is better.
enum LatencyChart {
    private static let minimumLabelWidth = 260.0
    private static let characterWidth = 6.8
    private static let plotWidth = 600.0
    private static let rowHeight = 16.0
    private static let groupGap = 10.0
    private static let top = 92.0
    private static let colors: [Side: String] = [
        .raw: "#555555",
        .lite: "#2f7ed8",
        .grdb: "#f28f43",
        .vapor: "#6c9a3b",
    ]
    /// The percentiles drawn, palest first: each bar is drawn over the one
    /// before.
    private static var percentiles: [(name: String, opacity: Double, value: (LatencyStatistics) -> Double)] {
        [("p99.9", 0.3, { $0.p999 }), ("p99", 0.6, { $0.p99 }), ("p50", 1, { $0.p50 })]
    }

    /// The chart, or nil when the report has no latency workload.
    static func render(_ report: BenchReport) -> String? {
        let workloads = report.workloads.filter { $0.latencyGroup != nil }
        let rows = workloads.map { result in
            (result, Side.allCases.compactMap { side in result[side]?.latency.map { (side, $0) } })
        }.filter { !$0.1.isEmpty }
        guard !rows.isEmpty else { return nil }
        let values = rows.flatMap { $0.1.flatMap { [$0.1.p50 * 1000, $0.1.p999 * 1000] } }
        let ticks = axisTicks(minimum: values.min()!, maximum: values.max()!)
        let low = log10(ticks.first!)
        let high = log10(ticks.last!)
        let labelWidth = max(
            minimumLabelWidth,
            (Double(rows.map { $0.0.workload.count + 14 }.max() ?? 0) * characterWidth + 16).rounded(.up))
        func x(_ milliseconds: Double) -> Double {
            labelWidth + (log10(max(milliseconds, ticks.first!)) - low) / (high - low) * plotWidth
        }
        let plotHeight = rows.reduce(0) { $0 + Double($1.1.count) * rowHeight + groupGap }
        let plotBottom = top + plotHeight
        let width = max(labelWidth + plotWidth + 150, labelWidth + 750)
        let height = plotBottom + 60

        var svg: [String] = []
        svg.append(
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(format(width))" height="\##(format(height))" "##
                + ##"viewBox="0 0 \##(format(width)) \##(format(height))" "##
                + ##"font-family="Helvetica, Arial, sans-serif" font-size="12">"##)
        svg.append(##"<rect width="100%" height="100%" fill="white"/>"##)
        svg.append(
            ##"<text x="10" y="22" font-size="15" font-weight="bold">"##
                + ##"Latency percentiles per side (milliseconds, shorter is better; logarithmic axis)</text>"##)
        let subtitle =
            "Every latency of \(report.plan.iterations) runs, pooled; server: enqueue to result; "
            + "observation: commit to onChange. \(report.machine.cpu), \(report.machine.cores) cores"
        svg.append(##"<text x="10" y="40" fill="#555">\##(escape(subtitle))</text>"##)
        for (index, percentile) in percentiles.enumerated() {
            let legendX = labelWidth + Double(index) * 110
            svg.append(
                ##"<rect x="\##(format(legendX))" y="52" width="12" height="12" fill="#555" "##
                    + ##"fill-opacity="\##(percentile.opacity)"/>"##)
            svg.append(##"<text x="\##(format(legendX + 16))" y="62">\##(percentile.name)</text>"##)
        }
        let present = Side.allCases.filter { side in rows.contains { $0.1.contains { $0.0 == side } } }
        for (index, side) in present.enumerated() {
            let legendX = labelWidth + Double(percentiles.count) * 110 + 20 + Double(index) * 100
            svg.append(
                ##"<rect x="\##(format(legendX))" y="52" width="12" height="12" "##
                    + ##"fill="\##(colors[side] ?? "#888")"/>"##)
            svg.append(##"<text x="\##(format(legendX + 16))" y="62">\##(escape(side.shortTitle))</text>"##)
        }
        for tick in ticks {
            let tickX = x(tick)
            svg.append(
                ##"<line x1="\##(format(tickX))" y1="\##(format(top - 4))" x2="\##(format(tickX))" "##
                    + ##"y2="\##(format(plotBottom))" stroke="#e3e3e3"/>"##)
            svg.append(
                ##"<text x="\##(format(tickX))" y="\##(format(plotBottom + 16))" text-anchor="middle" "##
                    + ##"fill="#555">\##(label(tick))</text>"##)
        }
        var y = top
        for (result, sides) in rows {
            for (side, latency) in sides {
                svg.append(
                    ##"<text x="\##(format(labelWidth - 8))" y="\##(format(y + rowHeight - 4))" "##
                        + ##"text-anchor="end">\##(escape("\(result.workload) · \(side.shortTitle)"))</text>"##)
                let color = colors[side] ?? "#888"
                for percentile in percentiles {
                    let value = percentile.value(latency) * 1000
                    let text = "\(side.title) \(result.workload) \(percentile.name): \(milliseconds(value)) ms"
                    svg.append(
                        ##"<rect x="\##(format(labelWidth))" y="\##(format(y + 2))" "##
                            + ##"width="\##(format(max(1, x(value) - labelWidth)))" "##
                            + ##"height="\##(format(rowHeight - 4))" fill="\##(color)" "##
                            + ##"fill-opacity="\##(percentile.opacity)"><title>\##(escape(text))</title></rect>"##)
                }
                let summary = [latency.p50, latency.p99, latency.p999].map { milliseconds($0 * 1000) }
                    .joined(separator: " / ")
                svg.append(
                    ##"<text x="\##(format(x(latency.p999 * 1000) + 4))" y="\##(format(y + rowHeight - 4))" "##
                        + ##"font-size="10" fill="#444">\##(escape(summary))</text>"##)
                y += rowHeight
            }
            y += groupGap
        }
        let footer = "p50 / p99 / p99.9 in ms after each bar. \(report.software.sqliteSummary). \(report.date)"
        svg.append(
            ##"<text x="10" y="\##(format(plotBottom + 40))" fill="#555" font-size="11">\##(escape(footer))</text>"##)
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// 1-2-5 ticks in milliseconds covering `minimum...maximum`.
    private static func axisTicks(minimum: Double, maximum: Double) -> [Double] {
        let all = (-4...5).flatMap { exponent in [1.0, 2, 5].map { $0 * pow(10, Double(exponent)) } }
        let first = all.last { $0 <= minimum } ?? all[0]
        let last = all.first { $0 >= maximum } ?? all[all.count - 1]
        let ticks = all.filter { $0 >= first && $0 <= last }
        return ticks.count > 1 ? ticks : [first, first * 10]
    }

    private static func milliseconds(_ value: Double) -> String {
        value >= 10 ? String(format: "%.0f", value) : value >= 1 ? String(format: "%.1f", value)
            : String(format: "%.3f", value)
    }

    private static func label(_ tick: Double) -> String {
        (tick >= 1 ? String(Int(tick)) : String(format: "%g", tick)) + " ms"
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
