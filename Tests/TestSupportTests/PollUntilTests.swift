import Synchronization
import Testing

@testable import TestSupport

@Suite struct PollUntilTests {
    @Test func returnsOnceTheConditionHolds() async throws {
        let looks = Atomic<Int>(0)
        // The limit is not what this test is about: the third look holds, however long
        // a loaded machine takes to get there.
        try await pollUntil(within: .seconds(600)) {
            looks.add(1, ordering: .relaxed).newValue == 3
        }
        #expect(looks.load(ordering: .relaxed) == 3)
    }

    /// A look that began before the limit and ended after it (a stalled machine) is not
    /// the last: the next look, begun past the limit, decides. Time is what is tested
    /// here: the first look outlasts the limit by sleeping past it.
    @Test func aLookThatOutlastsTheLimitIsFollowedByAnother() async throws {
        let looks = Atomic<Int>(0)
        try await pollUntil(within: .milliseconds(10)) {
            guard looks.add(1, ordering: .relaxed).newValue > 1 else {
                try await Task.sleep(for: .milliseconds(50))
                return false
            }
            return true
        }
        #expect(looks.load(ordering: .relaxed) == 2)
    }

    @Test func throwsWhenTheConditionNeverHolds() async {
        await #expect(throws: PollTimeout.self) {
            try await pollUntil(every: .milliseconds(1), within: .milliseconds(20)) { false }
        }
    }
}
