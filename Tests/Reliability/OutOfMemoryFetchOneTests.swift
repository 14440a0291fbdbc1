import CFaultInjection
import CSQLite
import Foundation
@_spi(GRDBLite) import GRDBLite
import Testing

/// The first element of a cursor (`fetchOne` of rows): a value SQLite
/// could not convert because an allocation failed is `SQLITE_NOMEM`, never
/// an empty string. SQLite's allocator fails the N-th allocation for each
/// N in turn, in a child process (the allocator is process-wide).
@Suite struct OutOfMemoryFetchOneTests {
    @Test func fetchOneOfARowThrowsWhenATextCanNotBeAllocated() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            print(Self.run())
        }
        guard let result else { return }
        let output = String(decoding: result.standardOutputContent, as: UTF8.self)
        #expect(output.hasPrefix("OK"), "\(output)")
    }

    /// In the child: reads a bound text (no NUL terminator, so reading it
    /// as text allocates a copy) through `Row.fetchOne`, failing each
    /// allocation in turn.
    static func run() -> String {
        do {
            let code = grdblite_fault_malloc_install()
            guard code == SQLITE_OK else { return "can't install the allocator: \(code)" }
            let dbQueue = try DatabaseQueue()
            let text = "✨ text"
            var nomem = 0
            for countdown in 1...10_000 {
                grdblite_fault_malloc_arm(Int32(countdown), 0)
                let result = Result {
                    try dbQueue.read { db in
                        try Row.fetchOne(db, sql: "SELECT ?", arguments: [text]).map { $0[0] as String? }
                    }
                }
                let injected = grdblite_fault_malloc_fault_count()
                grdblite_fault_malloc_disarm()
                switch result {
                case .success(let value):
                    if value != text { return "allocation \(countdown): read \(String(describing: value))" }
                case .failure(let error as DatabaseError) where error.resultCode == .SQLITE_NOMEM:
                    nomem += 1
                case .failure(let error):
                    return "allocation \(countdown): \(error)"
                }
                if injected == 0 { return nomem > 0 ? "OK \(countdown - 1) fault points" : "no NOMEM" }
            }
            return "no end"
        } catch {
            return "\(error)"
        }
    }
}
