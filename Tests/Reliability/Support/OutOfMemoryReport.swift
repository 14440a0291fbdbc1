import Testing

/// Checks what an out-of-memory workload printed in its child process:
/// each "FAILURE …" line is an issue, the others (its counts) are printed,
/// and a run that reached fewer than `minimumPoints` allocation fault
/// points tested too little (each allocation is a fault point).
func checkOutOfMemoryReport(
    _ result: ExitTest.Result?, minimumPoints: Int, label: String = "",
    sourceLocation: SourceLocation = #_sourceLocation)
{
    guard let result else { return }
    let output = String(decoding: result.standardOutputContent, as: UTF8.self)
    for line in output.split(separator: "\n") {
        if line.hasPrefix("FAILURE ") {
            Issue.record("\(line.dropFirst("FAILURE ".count))", sourceLocation: sourceLocation)
        } else {
            print(line)
        }
    }
    let points = output.firstMatch(of: /: (\d+) allocation fault points/).flatMap { Int($0.1) }
    #expect(
        (points ?? 0) >= minimumPoints, "\(label)\(points.map(String.init) ?? "no") fault points",
        sourceLocation: sourceLocation)
}
