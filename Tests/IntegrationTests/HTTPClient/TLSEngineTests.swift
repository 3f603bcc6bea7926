import HTTPCore
import TestSupport
import Testing

@testable import HTTPClient

/// TLS through the whole client against Python's `ssl` module (OpenSSL underneath, but
/// not our code), with certificates made at test time.
@Suite(.resourceClass(.integration)) struct TLSEngineTests {
    static func client(trustingTestCA: Bool = true) throws -> HTTPClient {
        var configuration = HTTPClientConfiguration()
        configuration.extraCAFilePath = trustingTestCA ? TestPKI.shared.caFile : nil
        return try HTTPClient(configuration: configuration)
    }

    static func get(_ client: HTTPClient, host: String = "localhost", port: UInt16) async throws
        -> HTTPResponse
    {
        let request = try HTTPClientRequest(method: .get, url: "https://\(host):\(port)/ok")
        return try await client.send(request, timeoutSeconds: 30)
    }

    static func tlsFailure(
        _ certificate: String, _ extra: [String] = [], trustingTestCA: Bool = true
    )
        async throws -> TLSFailure?
    {
        let stub = try await UpstreamStub.start(tls: certificate, arguments: extra)
        let client = try client(trustingTestCA: trustingTestCA)
        defer { client.shutdown() }
        do {
            _ = try await get(client, port: stub.port)
            return nil
        } catch let error as HTTPClientError {
            guard case .tls(let failure) = error else { throw error }
            return failure
        }
    }

    @Test func succeedsWithTrustedCertificate() async throws {
        let stub = try await UpstreamStub.start(tls: "good")
        let client = try Self.client()
        defer { client.shutdown() }
        let response = try await Self.get(client, port: stub.port)
        #expect(response.status.code == 200)
        #expect(response.body == Array("hello".utf8))
    }

    @Test func verifiesIPLiteralAgainstIPSubjectAltName() async throws {
        let stub = try await UpstreamStub.start(tls: "good")
        let client = try Self.client()
        defer { client.shutdown() }
        let response = try await Self.get(client, host: "127.0.0.1", port: stub.port)
        #expect(response.status.code == 200)
    }

    @Test func refusesCertificateFromAnotherCA() async throws {
        let failure = try await Self.tlsFailure("foreign")
        guard case .certificateVerifyFailed(let reason) = failure else {
            Issue.record("expected certificateVerifyFailed, got \(String(describing: failure))")
            return
        }
        #expect(reason.contains("issuer"))
    }

    @Test func refusesTestCAWhenOnlyTheSystemStoreIsTrusted() async throws {
        let failure = try await Self.tlsFailure("good", trustingTestCA: false)
        guard case .certificateVerifyFailed = failure else {
            Issue.record("expected certificateVerifyFailed, got \(String(describing: failure))")
            return
        }
    }

    @Test func refusesCertificateForAnotherHost() async throws {
        let failure = try await Self.tlsFailure("otherhost")
        #expect(failure == .hostnameMismatch)
    }

    @Test func refusesExpiredCertificate() async throws {
        let failure = try await Self.tlsFailure("expired")
        guard case .certificateVerifyFailed(let reason) = failure else {
            Issue.record("expected certificateVerifyFailed, got \(String(describing: failure))")
            return
        }
        #expect(reason.contains("expired"))
    }

    @Test func refusesServerOfferingOnlyTLS11() async throws {
        let failure = try await Self.tlsFailure("good", ["--tls-max", "1.1"])
        guard case .protocolVersion = failure else {
            Issue.record("expected protocolVersion, got \(String(describing: failure))")
            return
        }
    }

    /// The session from the first connection is offered on the next one, and the
    /// server (Python's ssl, TLS 1.3 tickets) accepts it: no second full handshake.
    @Test func resumesTheSessionOnTheNextConnection() async throws {
        let stub = try await UpstreamStub.start(tls: "good")
        let client = try Self.client()
        defer { client.shutdown() }
        let url = "https://localhost:\(stub.port)"
        _ = try await Self.get(client, port: stub.port)
        let pool = client.pool(for: try UpstreamURL(url).origin)
        #expect(pool.session != nil)
        // Close the first connection so the next request needs a new one.
        for connection in pool.idleConnections {
            await withCheckedContinuation { continuation in
                connection.loop.execute {
                    connection.close()
                    continuation.resume()
                }
            }
        }
        _ = try await Self.get(client, port: stub.port)
        let second = pool.idleConnections
        #expect(second.count == 1)
        for connection in second {
            let reused = await withCheckedContinuation { continuation in
                connection.loop.execute {
                    continuation.resume(returning: connection.stream.tls?.sessionWasReused)
                }
            }
            #expect(reused == true)
        }
    }

    static func getPath(_ client: HTTPClient, _ path: String, port: UInt16) async throws
        -> HTTPResponse
    {
        let request = try HTTPClientRequest(
            method: .get, url: "https://localhost:\(port)\(path)")
        return try await client.send(request, timeoutSeconds: 30)
    }

    /// A close-delimited response ended by a bare TCP close, no close_notify (RFC 8446
    /// §6.1): the end may be a cut, so it is a truncated response, not a body.
    @Test func closeDelimitedResponseWithoutCloseNotifyIsTruncated() async throws {
        let stub = try await UpstreamStub.start(tls: "good")
        let client = try Self.client()
        defer { client.shutdown() }
        do {
            let response = try await Self.getPath(client, "/close-delimited", port: stub.port)
            Issue.record("accepted a truncated body: \(response.body.count) bytes")
        } catch let error as HTTPClientError {
            guard case .protocolError(let reason) = error else {
                Issue.record("expected protocolError, got \(error)")
                return
            }
            #expect(reason.contains("close_notify"))
        }
    }

    @Test func closeDelimitedResponseEndedByCloseNotifyIsComplete() async throws {
        let stub = try await UpstreamStub.start(tls: "good")
        let client = try Self.client()
        defer { client.shutdown() }
        let response = try await Self.getPath(client, "/close-delimited-notify", port: stub.port)
        #expect(String(decoding: response.body, as: UTF8.self) == "until the end")
    }

    /// The pool keeps one session per origin; OpenSSL's internal cache kept every session
    /// of every connection as well (up to 20,480), unread. It stays empty now.
    @Test func opensslInternalSessionCacheStaysEmpty() async throws {
        let stub = try await UpstreamStub.start(tls: "good", arguments: ["--close-after", "1"])
        let client = try Self.client()
        defer { client.shutdown() }
        let pool = client.pool(for: try UpstreamURL("https://localhost:\(stub.port)").origin)
        for _ in 0..<5 {
            _ = try await Self.get(client, port: stub.port)
            // The stub closes after each response: once the idle watch has retired the
            // connection, the next request takes a new connection and a new session.
            try await pollUntil(every: .milliseconds(5)) { pool.idleConnections.isEmpty }
        }
        #expect(client.tlsContext.internalCacheSessionCount == 0)
    }

    @Test func unreadableCAFileIsAConfigurationError() {
        var configuration = HTTPClientConfiguration()
        configuration.extraCAFilePath = "/nonexistent/ca.pem"
        #expect {
            _ = try HTTPClient(configuration: configuration)
        } throws: { error in
            guard case .tls(.configuration) = error as? HTTPClientError else { return false }
            return true
        }
    }
}
