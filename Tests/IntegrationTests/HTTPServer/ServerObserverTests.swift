import Foundation
import HTTPCore
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// `ServerConfiguration.observer` hears what the server refuses on its own, and
/// `connectionCounts` tells open from idle connections.
@Suite(.resourceClass(.integration)) struct ServerObserverTests {
    final class Recorder: ServerObserver {
        private let events = Mutex<[ServerEvent]>([])
        func observe(_ event: ServerEvent) { events.withLock { $0.append(event) } }
        var recorded: [ServerEvent] { events.withLock { $0 } }

        /// Waits for `event` (deadline events arrive from the sweeper); false when it has
        /// not come within `pollUntil`'s generous limit.
        func waitFor(_ event: ServerEvent) async throws -> Bool {
            do {
                try await pollUntil(every: .milliseconds(10)) { recorded.contains(event) }
                return true
            } catch is PollTimeout {
                return false
            }
        }
    }

    @Test(arguments: [
        (
            "GET /hello HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
            ServerEvent.malformed(.duplicateHost)
        ),
        ("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n", .unrouted(status: .notFound)),
        ("DELETE /hello HTTP/1.1\r\nHost: x\r\n\r\n", .unrouted(status: .methodNotAllowed)),
        (
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999\r\n\r\n",
            .malformed(.contentTooLarge)
        ),
        ("GET /hello HTTP/1.1\r\nHost: x\r\nX: 1", .deadlinePassed(.header)),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nab", .deadlinePassed(.body)),
    ])
    func refusalsAreReported(request: String, expected: ServerEvent) async throws {
        let recorder = Recorder()
        try await TestServer.with({
            $0.observer = recorder
            $0.headerTimeoutSeconds = 0.3
            $0.bodyTimeoutSeconds = 0.3
        }) { _, port in
            let client = try RawClient(port: port)
            try await client.send(request)
            _ = try? await client.readResponse()
            #expect(try await recorder.waitFor(expected), "\(recorder.recorded)")
        }
    }

    @Test func anIdleKeepAliveIsCountedAsIdleAndABusyOneIsNot() async throws {
        // An idle deadline no loaded machine reaches while the test counts: what is under
        // test here is the count, not the deadline (the next test).
        try await TestServer.with({ $0.idleTimeoutSeconds = 60 }) { server, port in
            let client = try RawClient(port: port)
            try await client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().statusCode == 200)
            let counts = await server.connectionCounts()
            #expect(counts.open == 1)
            #expect(counts.idle == 1)
            let busy = try RawClient(port: port)
            try await busy.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Half: ")
            // The second connection is counted once its loop has accepted it, and is busy
            // (not idle) once that loop has read its partial head; accepting and reading
            // are two turns of the loop, so wait for both.
            var withBusy = await server.connectionCounts()
            try await pollUntil(every: .milliseconds(10)) {
                withBusy = await server.connectionCounts()
                return withBusy.open == 2 && withBusy.idle <= 1
            }
            #expect(withBusy.open == 2)
            #expect(withBusy.idle == 1)
        }
    }

    @Test func anIdleKeepAliveIsReportedWhenItsDeadlinePasses() async throws {
        let recorder = Recorder()
        try await TestServer.with({
            $0.observer = recorder
            $0.idleTimeoutSeconds = 0.3
        }) { _, port in
            let client = try RawClient(port: port)
            try await client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().statusCode == 200)
            #expect(try await recorder.waitFor(.deadlinePassed(.idle)))
            #expect(try await client.readsEOF())
            #expect(!recorder.recorded.contains(.deadlinePassed(.write)))
        }
    }

    @Test func aPausedAcceptAtTheCapIsReported() async throws {
        let recorder = Recorder()
        try await TestServer.with({
            $0.observer = recorder
            $0.maxConnections = 1
        }) { _, port in
            let first = try RawClient(port: port)
            try await first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await first.readResponse().statusCode == 200)
            let second = try RawClient(port: port)
            #expect(try await recorder.waitFor(.connectionCapReached))
            _ = second
        }
    }
}
