@testable import GRDBLite
import Testing

// The record coders cache keyed containers as their boxes and rebuild them
// (CodingContainerBox). Its first use checks, once, that a container
// rebuilt from its box is the boxed container, and traps otherwise.
@Suite struct RecordCodingContainerBoxTests {
    @Test func keyedContainersRebuiltFromTheirBoxAreTheBoxedContainers() {
        // Reading the flag runs the check: a failed round trip traps.
        #expect(CodingContainerBox.isAvailable)
    }
}
