import Testing

@testable import TestSupport

/// A `.deadlines` suite's tests, and what they await, run on the executor's own threads
/// (`OwnThreadsExecutor.deadlines`), not the cooperative pool that other suites can hold.
@Suite(.resourceClass(.deadlines)) struct DeadlineExecutorTests {
    @Test func aDeadlineSuitesTestRunsOnItsOwnThreadsAcrossSleepsAndChildTasks() async throws {
        #expect(Self.onDeadlineThread)
        // A timer's wake-up is what is tested: the continuation after a sleep (resumed by
        // the timer, not the test) still runs on the executor's threads.
        try await Task.sleep(for: .milliseconds(5))
        #expect(Self.onDeadlineThread)
        async let child = Self.onDeadlineThread
        #expect(await child)
        let inGroup = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 { group.addTask { Self.onDeadlineThread } }
            return await group.reduce(true) { $0 && $1 }
        }
        #expect(inGroup)
    }

    private static var onDeadlineThread: Bool { OwnThreadsExecutor.deadlines.isCurrent }
}

/// A unit suite (no class) runs where Swift puts it: the cooperative pool.
@Suite struct UnclassedSuiteExecutorTests {
    @Test func aUnitSuitesTestRunsOnThePool() {
        #expect(!OwnThreadsExecutor.deadlines.isCurrent)
        #expect(!OwnThreadsExecutor.compute.isCurrent)
    }
}

/// A `.compute` suite's tests run on the compute threads: neither the pool nor the
/// deadline suites' threads.
@Suite(.resourceClass(.compute)) struct ComputeExecutorTests {
    @Test func aComputeSuitesTestRunsOnItsOwnThreadsWithItsChildTasks() async {
        #expect(OwnThreadsExecutor.compute.isCurrent)
        #expect(!OwnThreadsExecutor.deadlines.isCurrent)
        async let child = OwnThreadsExecutor.compute.isCurrent
        #expect(await child)
    }

    @Test func aSynchronousTestRunsThereToo() {
        #expect(OwnThreadsExecutor.compute.isCurrent)
    }
}
