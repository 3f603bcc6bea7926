import Foundation
import HTTPCore
import HTTPServer
import Synchronization

/// Handlers that stay busy until the test lets them go, so a test orders events by what
/// it sees instead of by how long a fixed delay lasts (a CI machine once stalled a whole
/// test process for 12 s, and a 2 s handler finished before the step it was to outlast).
final class HandlerHold: Sendable {
    private let entered = Atomic<Bool>(false)
    private let released = Atomic<Bool>(false)

    /// A handler has started and is holding.
    var isHeld: Bool { entered.load(ordering: .acquiring) }
    func release() { released.store(true, ordering: .releasing) }

    /// `/hold` keeps its loop's thread (it never awaits); `/hold-awaiting` awaits, which
    /// frees the loop. Each answers with its own path once released.
    var routes: [Route<HTTPHandler>] {
        [
            Route(.get, "/hold") { [self] _, _ in
                entered.store(true, ordering: .releasing)
                while !released.load(ordering: .acquiring) { usleep(1_000) }
                return HTTPResponse(status: .ok, body: Array("held".utf8))
            },
            Route(.get, "/hold-awaiting") { [self] _, _ in
                entered.store(true, ordering: .releasing)
                while !released.load(ordering: .acquiring) {
                    try await Task.sleep(for: .milliseconds(1))
                }
                return HTTPResponse(status: .ok, body: Array("held awaiting".utf8))
            },
        ]
    }

    /// The test server's routes and these.
    var router: Router { Router(TestServer.routes + routes) }
}
