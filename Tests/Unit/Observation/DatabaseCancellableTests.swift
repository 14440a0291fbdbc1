import GRDBLite
import Testing

@Suite struct DatabaseCancellableTests {
    @Test func cancelRunsOnce() {
        let count = LockedValue(0)
        let cancellable = AnyDatabaseCancellable { count.update { $0 += 1 } }
        cancellable.cancel()
        cancellable.cancel()
        #expect(count.value == 1)
    }

    @Test func deinitCancels() {
        let count = LockedValue(0)
        do {
            _ = AnyDatabaseCancellable { count.update { $0 += 1 } }
        }
        #expect(count.value == 1)
    }

    @Test func wrapsAnotherCancellable() {
        let count = LockedValue(0)
        let inner = AnyDatabaseCancellable { count.update { $0 += 1 } }
        let outer = AnyDatabaseCancellable(inner)
        outer.cancel()
        #expect(count.value == 1)
        inner.cancel()
        #expect(count.value == 1)
    }
}
