/// The dump workload: the `fetchRowCount` rows of the fetch file's `item`
/// table printed in GRDB's debug format (`0|0|0|…|0`, one line per row)
/// to a stream that only counts what it receives.
extension Workload {
    /// No Vapor side: SQLiteNIO and SQLKit have no dump.
    static let dump = Workload(
        name: "dump", title: "Dump a table (debug format) to a discarding stream",
        rowCount: { $0.fetchRowCount },
        prepare: { _ in },
        result: { job, _ in
            guard let fetched = job.fetched else { throw BenchError("dump: the job reports no output") }
            return try fetched()
        },
        expected: { DumpCountingStream.expectedDigest(rowCount: $0.fetchRowCount) },
        allocationRule: nil,
        jobs: [.raw: RawSide.dump, .lite: LiteSide.dump, .grdb: GRDBSide.dump])
}

/// A text stream that keeps only the number of lines and of UTF-8 bytes
/// it receives (a class: the dump methods take the stream by value).
final class DumpCountingStream: TextOutputStream {
    private(set) var digest = Digest()

    func write(_ string: String) {
        var string = string
        string.withUTF8 { bytes in
            digest.sum &+= bytes.count
            for byte in bytes where byte == UInt8(ascii: "\n") { digest.count += 1 }
        }
    }

    /// What a dump of `rowCount` fixture rows writes: row `n` is ten times
    /// `n`, nine separators and a newline.
    static func expectedDigest(rowCount: Int) -> Digest {
        var digest = Digest()
        for n in 0..<rowCount {
            digest.count += 1
            digest.sum &+= 10 * String(n).utf8.count + 10
        }
        return digest
    }
}
