import Dispatch
import Foundation
import HTTPCore
import HTTPServer
import Synchronization

/// Handlers that stay busy until the test lets them go, so a test orders events by what
/// it sees instead of by how long a fixed delay lasts (a CI machine once stalled a whole
/// test process for 12 s, and a 2 s handler finished before the step it was to outlast).
final class HandlerHold: Sendable {
    private let entered = Atomic<Bool>(false)
    /// Opened once by `release`, and open from then on.
    private let gate = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>(
        (false, []))
    /// What a `/hold` handler blocks its thread on; each waiter passes the signal on.
    private let blocking = DispatchSemaphore(value: 0)

    /// A handler has started and is holding.
    var isHeld: Bool { entered.load(ordering: .acquiring) }

    func release() {
        let waiting = gate.withLock { gate -> [CheckedContinuation<Void, Never>] in
            guard !gate.open else { return [] }
            gate.open = true
            defer { gate.waiting = [] }
            return gate.waiting
        }
        for continuation in waiting { continuation.resume() }
        blocking.signal()
    }

    /// Returns once `release` has been called, without holding a thread meanwhile.
    private func released() async {
        await withCheckedContinuation { continuation in
            let resumeNow = gate.withLock { gate -> Bool in
                if gate.open { return true }
                gate.waiting.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// `/hold` keeps its loop's thread (it never awaits); `/hold-awaiting` awaits, which
    /// frees the loop. Each answers with its own path once released.
    var routes: [Route<HTTPHandler>] {
        [
            Route(.get, "/hold") { [self] _, _ in
                entered.store(true, ordering: .releasing)
                blocking.wait()
                blocking.signal()  // open stays open, for the next holder
                return HTTPResponse(status: .ok, body: Array("held".utf8))
            },
            Route(.get, "/hold-awaiting") { [self] _, _ in
                entered.store(true, ordering: .releasing)
                await released()
                return HTTPResponse(status: .ok, body: Array("held awaiting".utf8))
            },
        ]
    }

    /// The test server's routes and these.
    var router: Router { Router(TestServer.routes + routes) }
}
