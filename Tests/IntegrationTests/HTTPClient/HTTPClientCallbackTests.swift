import HTTPCore
import TestSupport
import Testing
import Transport

@testable import HTTPClient

/// `send(_:deadline:completion:)`: in place on an idle connection of the caller's loop,
/// through the async path otherwise, and always answering on the caller's loop.
@Suite(.resourceClass(.integration)) struct HTTPClientCallbackTests {
    struct Answer: Sendable {
        var result: Result<HTTPResponse, HTTPClientError>
        var answeredOnLoop: Bool
    }

    /// Calls the callback `send` from `loop` (as a server's responding handler does).
    static func send(
        _ client: HTTPClient, _ request: HTTPClientRequest, from loop: EventLoop
    ) async -> Answer {
        await withCheckedContinuation { continuation in
            loop.execute {
                client.send(request, deadline: .after(seconds: 30)) { result in
                    continuation.resume(
                        returning: Answer(result: result, answeredOnLoop: loop.inLoop))
                }
            }
        }
    }

    @Test func aCallerOnALoopReusesThatLoopsIdleConnectionAndIsAnsweredThere() async throws {
        let stub = try await UpstreamStub.start()
        let client = try HTTPClient()
        defer { client.shutdown() }
        let url = "http://127.0.0.1:\(stub.port)"
        let loop = client.group.loops[1]
        let pool = client.pool(for: try UpstreamURL(url).origin, on: loop)

        // No idle connection yet: the async path opens one (in a task on the loop).
        let first = await Self.send(
            client, try HTTPClientRequest(method: .post, url: url + "/ok"), from: loop)
        #expect(try first.result.get().body == Array("hello".utf8))
        #expect(first.answeredOnLoop)
        let opened = pool.idleConnections
        #expect(opened.count == 1)

        // Now in place, on the same connection.
        for round in 0..<3 {
            let answer = await Self.send(
                client,
                try HTTPClientRequest(
                    method: .post, url: url + "/echo", body: Array("r\(round)".utf8)),
                from: loop)
            #expect(
                String(decoding: try answer.result.get().body, as: UTF8.self)
                    == "POST /echo\nr\(round)")
            #expect(answer.answeredOnLoop)
            #expect(pool.idleConnections.count == 1)
            #expect(pool.idleConnections.first === opened.first)
        }

        // A request that cannot be encoded is refused, and the idle connection stays.
        var headers = HTTPHeaders()
        headers.add(name: "X-Split", value: "a\r\nInjected: 1")
        let refused = await Self.send(
            client, try HTTPClientRequest(method: .post, url: url + "/ok", headers: headers),
            from: loop)
        guard case .failure(.invalidRequest) = refused.result else {
            Issue.record("expected invalidRequest, got \(refused.result)")
            return
        }
        #expect(pool.idleConnections.count == 1)
        #expect(pool.idleConnections.first === opened.first)
    }

    @Test func aPooledConnectionTheServerClosedIsRetriedThroughTheAsyncPath() async throws {
        let stub = try await UpstreamStub.start(arguments: ["--idle-close-ms", "3000"])
        let client = try HTTPClient()
        defer { client.shutdown() }
        let url = "http://127.0.0.1:\(stub.port)"
        let loop = client.group.loops[0]
        let pool = client.pool(for: try UpstreamURL(url).origin, on: loop)
        let first = await Self.send(
            client, try HTTPClientRequest(method: .post, url: url + "/ok"), from: loop)
        #expect(try first.result.get().status == .ok)
        let pooled = pool.idleConnections
        #expect(pooled.count == 1)
        for connection in pooled {
            await UpstreamConnectionTests.hideTheCloseFromTheLoop(connection)
            try await UpstreamConnectionTests.awaitTheServersClose(connection)
        }

        let second = await Self.send(
            client,
            try HTTPClientRequest(method: .post, url: url + "/echo", body: Array("once".utf8)),
            from: loop)
        #expect(String(decoding: try second.result.get().body, as: UTF8.self) == "POST /echo\nonce")
        #expect(second.answeredOnLoop)
        #expect(pool.idleConnections.allSatisfy { idle in !pooled.contains { $0 === idle } })
    }

    @Test func aCallerOffTheLoopsAndAFailureAreAnsweredToo() async throws {
        let stub = try await UpstreamStub.start()
        let client = try HTTPClient()
        defer { client.shutdown() }
        let url = "http://127.0.0.1:\(stub.port)"
        let request = try HTTPClientRequest(method: .post, url: url + "/ok")
        let answered: Result<HTTPResponse, HTTPClientError> = await withCheckedContinuation {
            continuation in
            client.send(request, deadline: .after(seconds: 30)) {
                continuation.resume(returning: $0)
            }
        }
        #expect(try answered.get().body == Array("hello".utf8))

        // A port nobody listens on: the failure comes back through the callback.
        let closed = try HTTPClientTests.closedPort()
        let failed = await Self.send(
            client, try HTTPClientRequest(method: .post, url: "http://127.0.0.1:\(closed)/ok"),
            from: client.group.loops[0])
        guard case .failure(.unreachable) = failed.result else {
            Issue.record("expected unreachable, got \(failed.result)")
            return
        }
        #expect(failed.answeredOnLoop)
    }
}
