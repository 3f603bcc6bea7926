import TestSupport
import Testing

@testable import HTTPClient
@testable import Transport

/// Pooling against the Python stub, which counts the TCP connections it accepted.
@Suite(.serialized, .resourceClass(.deadlines)) struct ConnectionPoolTests {
    static func client(_ adjust: (inout HTTPClientConfiguration) -> Void = { _ in }) throws
        -> HTTPClient
    {
        var configuration = HTTPClientConfiguration()
        configuration.extraCAFilePath = TestPKI.shared.caFile
        adjust(&configuration)
        return try HTTPClient(configuration: configuration)
    }

    static func get(_ client: HTTPClient, _ url: String, timeoutSeconds: Double = 30) async throws
        -> String
    {
        let response = try await client.send(
            HTTPClientRequest(method: .get, url: url), timeoutSeconds: timeoutSeconds)
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test(arguments: [false, true])
    func reusesKeepAliveConnections(tls: Bool) async throws {
        let stub = try await UpstreamStub.start(tls: tls ? "good" : nil)
        let client = try Self.client()
        defer { client.shutdown() }
        let base = "\(tls ? "https" : "http")://localhost:\(stub.port)"
        for _ in 0..<10 {
            #expect(try await Self.get(client, base + "/ok") == "hello")
        }
        #expect(try await Self.get(client, base + "/accepts") == "1")
    }

    @Test func capsConnectionsPerOriginAndQueuesTheRest() async throws {
        let stub = try await UpstreamStub.start()
        let client = try Self.client { $0.maxConnectionsPerOrigin = 2 }
        defer { client.shutdown() }
        let base = "http://127.0.0.1:\(stub.port)"
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<12 {
                group.addTask { try await Self.get(client, base + "/slow?ms=30") }
            }
            for try await body in group { #expect(body == "hello") }
        }
        let accepts = Int(try await Self.get(client, base + "/accepts")) ?? 0
        #expect(accepts >= 1 && accepts <= 2)
    }

    @Test func refusesWhenTheWaitQueueIsFull() async throws {
        let stub = try await UpstreamStub.start()
        let client = try Self.client {
            $0.maxConnectionsPerOrigin = 1
            $0.maxWaitersPerOrigin = 0
        }
        defer { client.shutdown() }
        let base = "http://127.0.0.1:\(stub.port)"
        let outcomes = await withTaskGroup(of: String.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    do {
                        _ = try await Self.get(client, base + "/slow?ms=300")
                        return "ok"
                    } catch let error as HTTPClientError {
                        return error == .poolExhausted ? "exhausted" : "\(error)"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(outcomes.sorted() == ["exhausted", "ok"])
    }

    /// Waiters share one expiry timer: a short wait times out at its own deadline even
    /// behind a longer one, and the longer one still gets the connection when it frees up.
    @Test func waitersTimeOutAtTheirOwnDeadlines() async throws {
        let stub = try await UpstreamStub.start()
        let client = try Self.client { $0.maxConnectionsPerOrigin = 1 }
        defer { client.shutdown() }
        let base = "http://127.0.0.1:\(stub.port)"
        let pool = client.pool(for: try UpstreamURL(base).origin)
        // The holder takes the only connection first, for 3 s: the short wait must end
        // at its own deadline long before (had it waited for the longer one's, it would
        // get the connection once the holder is done, and succeed).
        let holder = Task { try await Self.get(client, base + "/slow?ms=3000", timeoutSeconds: 30) }
        try await pollUntil { pool.usage.slotsInUse == 1 }
        let patient = Task { try await Self.get(client, base + "/ok", timeoutSeconds: 30) }
        try await pollUntil { pool.usage.waiters == 1 }
        let started = ContinuousClock.now
        await #expect(throws: HTTPClientError.timeout(.exchange)) {
            try await Self.get(client, base + "/ok", timeoutSeconds: 0.3)
        }
        #expect(ContinuousClock.now - started >= .milliseconds(290))
        #expect(try await holder.value == "hello")
        #expect(try await patient.value == "hello")
    }

    /// The stub closes keep-alive connections idle for 200 ms: the next request finds its
    /// pooled connection closed, and must still succeed on a new one. (At least two
    /// accepts: on a loaded machine the stub may also close the second connection before
    /// the count is asked for, which is a third.)
    @Test(arguments: [false, true])
    func serverClosingIdleConnectionsDoesNotFailRequests(tls: Bool) async throws {
        let stub = try await UpstreamStub.start(
            tls: tls ? "good" : nil, arguments: ["--idle-close-ms", "200"])
        let client = try Self.client()
        defer { client.shutdown() }
        let base = "\(tls ? "https" : "http")://localhost:\(stub.port)"
        #expect(try await Self.get(client, base + "/ok") == "hello")
        // The stub's idle close arrives and the idle watch retires the connection.
        let pool = client.pool(for: try UpstreamURL(base).origin)
        try await pollUntil(every: .milliseconds(10)) { pool.idleConnections.isEmpty }
        #expect(try await Self.get(client, base + "/ok") == "hello")
        let accepts = Int(try await Self.get(client, base + "/accepts")) ?? 0
        #expect(accepts >= 2)
    }

    /// The stub closes each connection right after its response, without
    /// `Connection: close`. Once its FIN has arrived the pooled connection must be seen
    /// as closed (by the idle watch or the check before writing) and replaced. (With no
    /// pause the next request can race the FIN onto the wire; an error is then correct,
    /// as the request may have reached the server, and is not retried.)
    @Test func serverClosingAfterEachResponseDoesNotFailLaterRequests() async throws {
        let stub = try await UpstreamStub.start(arguments: ["--close-after", "1"])
        let client = try Self.client()
        defer { client.shutdown() }
        let base = "http://127.0.0.1:\(stub.port)"
        let pool = client.pool(for: try UpstreamURL(base).origin)
        for _ in 0..<5 {
            #expect(try await Self.get(client, base + "/ok") == "hello")
            // Until the stub's FIN is on the pooled connection (or the idle watch has
            // already retired it): the next request then finds it closed one way or the
            // other. (Its fd is looked at only while the pool still holds it.)
            try await pollUntil(every: .milliseconds(5)) {
                pool.idleConnections.allSatisfy { Loopback.peerHasClosed($0.channel.fd) }
            }
        }
    }

    @Test func shutdownFailsLaterRequests() async throws {
        let stub = try await UpstreamStub.start()
        let client = try Self.client()
        #expect(try await Self.get(client, "http://127.0.0.1:\(stub.port)/ok") == "hello")
        client.shutdown()
        await #expect(throws: HTTPClientError.shutdown) {
            _ = try await Self.get(client, "http://127.0.0.1:\(stub.port)/ok")
        }
    }
}
