import Synchronization
import Testing

@testable import TestSupport

@Suite struct PollUntilTests {
    @Test func returnsOnceTheConditionHolds() async throws {
        let looks = Atomic<Int>(0)
        try await pollUntil {
            looks.add(1, ordering: .relaxed).newValue == 3
        }
        #expect(looks.load(ordering: .relaxed) == 3)
    }

    @Test func throwsWhenTheConditionNeverHolds() async {
        await #expect(throws: PollTimeout.self) {
            try await pollUntil(every: .milliseconds(1), within: .milliseconds(20)) { false }
        }
    }
}
