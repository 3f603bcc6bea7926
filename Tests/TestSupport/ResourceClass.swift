import Testing

/// The machine resource a suite loads, declared on the suite (`@Suite(.resourceClass(
/// .integration))`). `swift test` runs every suite of every target in one process at once;
/// on a 2-core machine the end-to-end suites' child processes then take the CPU from the
/// integration suites that measure deadlines on real sockets, and those fail for no fault
/// of the code. Suites of one class run in parallel as before; suites of different
/// classes never overlap (whichever class comes first runs, then the next: a class
/// already waiting is not overtaken), and a `.deadlines` suite runs alone, its tasks on
/// threads of their own (`OwnThreadsExecutor`). Unit suites are pure and declare nothing,
/// unless they compute for seconds without awaiting (`.compute`).
///
/// Why `.compute`: a debug build's fuzz loops and key generations hold a pool thread for
/// seconds each, more on a loaded machine, and all of them start with the run. Sampled in
/// a loaded run (gdb, every pool thread's stack), both pool threads ran such loops for the
/// first ~40 s; every continuation of every other suite waited behind them (a 1 ms sleep
/// resumed after 40 s, a request's body outlasted its server's 10 s deadline).
public struct ResourceClass: SuiteTrait, TestScoping {
    public enum Kind: Sendable, Equatable {
        /// Real sockets and real deadlines, in this process (IntegrationTests).
        case integration
        /// Child processes: the real binary, stubs, browsers (EndToEndTests).
        case processes
        /// Real sockets whose tests measure time: one such suite at a time, alone.
        case deadlines
        /// Pure computation that holds a thread for seconds (fuzz loops, thousands of keys
        /// or seals): runs beside every class, on threads of its own, off the pool.
        case compute
    }

    public let kind: Kind

    public var isRecursive: Bool { false }

    /// Once for the whole suite, around all of its tests.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        test.isSuite ? self : nil
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        if kind == .compute {
            // No gate: it touches no socket, process or clock; only the pool is kept free.
            try await withTaskExecutorPreference(OwnThreadsExecutor.compute) {
                try await function()
            }
            return
        }
        await ResourceGate.shared.enter(kind)
        do {
            if kind == .deadlines {
                // Its tests run on threads the rest of the process cannot hold up.
                try await withTaskExecutorPreference(OwnThreadsExecutor.deadlines) {
                    try await function()
                }
            } else {
                try await function()
            }
        } catch {
            await ResourceGate.shared.leave()
            throw error
        }
        await ResourceGate.shared.leave()
    }
}

extension Trait where Self == ResourceClass {
    public static func resourceClass(_ kind: ResourceClass.Kind) -> Self {
        ResourceClass(kind: kind)
    }
}

/// Admits suites of one `ResourceClass.Kind` at a time, first come first served by kind.
actor ResourceGate {
    static let shared = ResourceGate()

    private var active: ResourceClass.Kind?
    private var running = 0
    private var waiting: [(kind: ResourceClass.Kind, resume: CheckedContinuation<Void, Never>)] =
        []

    /// What the gate holds, for its tests.
    struct State: Equatable {
        var active: ResourceClass.Kind?
        var running: Int
        var waiting: [ResourceClass.Kind]
    }

    var state: State { State(active: active, running: running, waiting: waiting.map(\.kind)) }

    func enter(_ kind: ResourceClass.Kind) async {
        let othersWait = waiting.contains { $0.kind != kind }
        if running == 0 || (active == kind && kind != .deadlines && !othersWait) {
            active = kind
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append((kind, $0)) }
    }

    func leave() {
        running -= 1
        guard running == 0 else { return }
        guard let next = waiting.first?.kind else {
            active = nil
            return
        }
        active = next
        if next == .deadlines {
            running = 1
            waiting.removeFirst().resume.resume()
            return
        }
        var rest: [(kind: ResourceClass.Kind, resume: CheckedContinuation<Void, Never>)] = []
        for waiter in waiting {
            if waiter.kind == next {
                running += 1
                waiter.resume.resume()
            } else {
                rest.append(waiter)
            }
        }
        waiting = rest
    }
}
