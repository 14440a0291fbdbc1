/// The distribution of the latencies of a latency workload (see
/// ``Workload/latencyGroup``): every latency of the measured runs of a
/// side, pooled, sorted, and read at the nearest rank (the percentile p is
/// the smallest latency that at least p% of the latencies don't exceed).
struct LatencyStatistics: Codable {
    /// How many latencies (requests, or notifications) the figures cover.
    var count: Int
    /// Seconds.
    var p50: Double
    var p99: Double
    var p999: Double
    var max: Double
    /// Requests over the summed durations of the measured runs (server
    /// workloads).
    var requestsPerSecond: Double?

    init?(latencies: [Double], requestsPerSecond: Double?) {
        guard !latencies.isEmpty else { return nil }
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double {
            let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
            return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
        }
        count = sorted.count
        p50 = percentile(50)
        p99 = percentile(99)
        p999 = percentile(99.9)
        max = sorted[sorted.count - 1]
        self.requestsPerSecond = requestsPerSecond
    }
}
