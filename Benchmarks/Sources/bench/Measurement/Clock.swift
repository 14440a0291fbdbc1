import Glibc

/// Monotonic time in seconds (`CLOCK_MONOTONIC`): not affected by changes
/// of the wall clock.
@inline(__always)
func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Median, minimum and maximum of measured durations.
struct TimeStatistics: Codable {
    /// Every measured duration, in seconds, in the order of the runs.
    var seconds: [Double]
    var median: Double
    var min: Double
    var max: Double

    init(seconds: [Double]) {
        precondition(!seconds.isEmpty)
        let sorted = seconds.sorted()
        let middle = sorted.count / 2
        self.seconds = seconds
        self.median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        self.min = sorted[0]
        self.max = sorted[sorted.count - 1]
    }
}
