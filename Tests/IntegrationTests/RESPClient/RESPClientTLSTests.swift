import RESPClient
import TestSupport
import Testing
import Transport

/// `rediss://` against `redis-server --tls-port` (Debian 12's build has TLS) with the test
/// PKI: verified against the CA file it works; trusting another CA, or a certificate for
/// another host, is refused (verification is never optional).
@Suite(.resourceClass(.integration)) struct RESPClientTLSTests {
    static let group = EventLoopGroup(loopCount: 1)

    private func client(port: UInt16, host: String = "localhost", caFile: String) throws
        -> RESPClient
    {
        try RESPClient(
            endpoint: RESPEndpoint(url: "rediss://\(host):\(port)"), loops: Self.group,
            timeout: .seconds(5), caFile: caFile)
    }

    @Test(arguments: ["localhost", "127.0.0.1"])
    func aVerifiedServerAnswers(host: String) async throws {
        let redis = try await RedisServer.start(tls: "good", ["--requirepass", "tls-secret"])
        let store = try RESPClient(
            endpoint: RESPEndpoint(
                url: "rediss://\(host):\(redis.port)/2", password: "tls-secret"),
            loops: Self.group, timeout: .seconds(5), caFile: TestPKI.shared.caFile)
        defer { store.shutdown() }
        let value = [UInt8](repeating: 0x5A, count: 100_000)
        #expect(
            try await store.send([Array("SET".utf8), Array("k".utf8), value]) == .simpleString("OK")
        )
        #expect(try await store.send([Array("GET".utf8), Array("k".utf8)]) == .bulkString(value))
    }

    @Test func anotherCAIsRefused() async throws {
        let redis = try await RedisServer.start(tls: "good")
        let store = try client(port: redis.port, caFile: TestPKI.shared.otherCAFile)
        defer { store.shutdown() }
        do {
            _ = try await store.send([Array("PING".utf8)])
            Issue.record("an unverified server was trusted")
        } catch {
            guard case .tls(.certificateVerifyFailed) = error else {
                Issue.record("expected certificateVerifyFailed, got \(error)")
                return
            }
        }
    }

    @Test func aCertificateForAnotherHostIsRefused() async throws {
        let redis = try await RedisServer.start(tls: "otherhost")
        let store = try client(port: redis.port, caFile: TestPKI.shared.caFile)
        defer { store.shutdown() }
        await #expect(throws: RESPError.tls(.hostnameMismatch)) {
            try await store.send([Array("PING".utf8)])
        }
    }

    @Test func aPlainClientGetsNoAnswerFromATLSPort() async throws {
        let redis = try await RedisServer.start(tls: "good")
        let store = try RESPClient(
            endpoint: RESPEndpoint(url: redis.url), loops: Self.group,
            timeout: .seconds(3))
        defer { store.shutdown() }
        await #expect(throws: RESPError.self) { try await store.send([Array("PING".utf8)]) }
    }

    @Test func anUnreadableCAFileIsAConfigurationError() throws {
        #expect {
            try RESPClient(
                endpoint: RESPEndpoint(url: "rediss://localhost"), loops: Self.group,
                timeout: .seconds(1), caFile: "/nonexistent/ca.pem")
        } throws: { error in
            guard case .tls(.configuration) = error as? RESPError else { return false }
            return true
        }
    }
}
