import Testing

@testable import TestSupport

/// The gate that keeps resource classes apart in one test process, driven directly: no
/// suite, no clock (a waiter is seen in the gate's state before the next step).
@Suite struct ResourceGateTests {
    /// Yields until `condition` holds (a bounded number of times, then records a failure).
    static func until(_ condition: () async -> Bool) async {
        for _ in 0..<100_000 {
            if await condition() { return }
            await Task.yield()
        }
        Issue.record("the gate never reached the expected state")
    }

    @Test func classesTakeTurnsAndAWaitingClassIsNotOvertaken() async {
        let gate = ResourceGate()
        await gate.enter(.integration)
        await gate.enter(.integration)
        #expect(await gate.state == .init(active: .integration, running: 2, waiting: []))

        let processes = Task { await gate.enter(.processes) }
        await Self.until { await gate.state.waiting == [.processes] }
        // Another integration suite now queues behind the waiting class.
        let late = Task { await gate.enter(.integration) }
        await Self.until { await gate.state.waiting == [.processes, .integration] }

        await gate.leave()
        #expect(
            await gate.state
                == .init(active: .integration, running: 1, waiting: [.processes, .integration]))
        await gate.leave()
        await processes.value
        #expect(await gate.state == .init(active: .processes, running: 1, waiting: [.integration]))
        await gate.leave()
        await late.value
        #expect(await gate.state == .init(active: .integration, running: 1, waiting: []))
        await gate.leave()
        #expect(await gate.state == .init(active: nil, running: 0, waiting: []))
    }

    @Test func aDeadlinesSuiteRunsAlone() async {
        let gate = ResourceGate()
        await gate.enter(.deadlines)
        let second = Task { await gate.enter(.deadlines) }
        await Self.until { await gate.state.waiting == [.deadlines] }
        let other = Task { await gate.enter(.integration) }
        await Self.until { await gate.state.waiting == [.deadlines, .integration] }

        await gate.leave()
        await second.value
        #expect(await gate.state == .init(active: .deadlines, running: 1, waiting: [.integration]))
        await gate.leave()
        await other.value
        #expect(await gate.state == .init(active: .integration, running: 1, waiting: []))
        await gate.leave()
    }

    @Test func suitesOfOneClassShareTheGate() async {
        let gate = ResourceGate()
        for _ in 0..<3 { await gate.enter(.processes) }
        #expect(await gate.state == .init(active: .processes, running: 3, waiting: []))
        for _ in 0..<3 { await gate.leave() }
        #expect(await gate.state == .init(active: nil, running: 0, waiting: []))
    }
}
