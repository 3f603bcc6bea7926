import TLS
import TestSupport
import Testing

/// The engine as the pure byte transform it is: a client and a server engine hand each
/// other their ciphertext in memory, no socket between them (the same engines over real
/// sockets: IntegrationTests/HTTPClient/TLSEngineTests and HTTPSConnectionTests).
@Suite struct TLSEngineInMemoryTests {
    /// A client engine for `serverName` trusting `caFile`, facing a server engine with the
    /// test PKI's `certificate`.
    struct Pair {
        let client: TLSEngine
        let server: TLSEngine

        init(certificate: String, serverName: String = "localhost", trusting caFile: String? = nil)
            async throws
        {
            let pki = try await offPool { TestPKI.shared }
            let clientContext = try TLSClientContext(extraCAFilePath: caFile ?? pki.caFile)
            let serverContext = try TLSServerContext(
                certificateChainFile: pki.cert(certificate), keyFile: pki.key(certificate))
            client = try TLSEngine(context: clientContext, serverName: serverName)
            server = try TLSEngine(context: serverContext)
        }

        /// Moves whatever `from` has to send into `to`; false when there was nothing.
        @discardableResult
        static func carry(_ from: TLSEngine, _ to: TLSEngine) -> Bool {
            var bytes: [UInt8] = []
            from.takeCiphertext(into: &bytes)
            bytes.withUnsafeBytes { to.receiveCiphertext($0) }
            return !bytes.isEmpty
        }

        /// Runs both handshakes to the end; throws the client's failure.
        func handshake() throws(TLSFailure) {
            for _ in 0..<20 {
                let clientDone = try client.handshake() == .complete
                Self.carry(client, server)
                let serverDone = (try? server.handshake()) == .complete
                Self.carry(server, client)
                if clientDone && serverDone { return }
            }
            throw .handshake(reason: "no progress after 20 rounds")
        }

        /// Encrypts `text` on one side and reads it on the other.
        static func send(_ text: String, from: TLSEngine, to: TLSEngine) throws -> String {
            try Array(text.utf8).withUnsafeBytes { try from.writePlaintext($0) }
            carry(from, to)
            var scratch = [UInt8](repeating: 0, count: 16 * 1024)
            var received: [UInt8] = []
            _ = try scratch.withUnsafeMutableBytes {
                try to.drainPlaintext(into: &received, scratch: $0)
            }
            return String(decoding: received, as: UTF8.self)
        }
    }

    @Test func handshakesAndCarriesRecordsBothWays() async throws {
        let pair = try await Pair(certificate: "good")
        try pair.handshake()
        #expect(pair.client.handshakeComplete && pair.server.handshakeComplete)
        #expect(try Pair.send("ping", from: pair.client, to: pair.server) == "ping")
        #expect(try Pair.send("pong", from: pair.server, to: pair.client) == "pong")
    }

    @Test func closeNotifyEndsTheStream() async throws {
        let pair = try await Pair(certificate: "good")
        try pair.handshake()
        #expect(!pair.client.receivedCloseNotify)
        pair.server.close()
        Pair.carry(pair.server, pair.client)
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        var received: [UInt8] = []
        // TLS 1.3 session tickets may come first; they carry no application bytes, and the
        // drain reads past them to the close.
        let end = try scratch.withUnsafeMutableBytes {
            try pair.client.drainPlaintext(into: &received, scratch: $0)
        }
        guard case .closed = end else {
            Issue.record("read \(end) after close_notify")
            return
        }
        #expect(received.isEmpty)
        #expect(pair.client.receivedCloseNotify)
    }

    @Test func anIPLiteralIsCheckedAgainstTheIPSubjectAltName() async throws {
        let pair = try await Pair(certificate: "good", serverName: "127.0.0.1")
        try pair.handshake()
        #expect(pair.client.handshakeComplete)
    }

    @Test func aCertificateForAnotherHostIsAHostnameMismatch() async throws {
        let pair = try await Pair(certificate: "otherhost")
        #expect(throws: TLSFailure.hostnameMismatch) { try pair.handshake() }
    }

    @Test(arguments: ["expired", "foreign"])
    func anUntrustedChainFailsVerification(certificate: String) async throws {
        let pair = try await Pair(certificate: certificate)
        #expect {
            try pair.handshake()
        } throws: { error in
            guard case .certificateVerifyFailed = error as? TLSFailure else { return false }
            return true
        }
    }

    @Test func unreadableFilesAreConfigurationErrors() {
        #expect {
            _ = try TLSClientContext(extraCAFilePath: "/nonexistent/ca.pem")
        } throws: { error in
            guard case .configuration = error as? TLSFailure else { return false }
            return true
        }
        #expect {
            _ = try TLSServerContext(
                certificateChainFile: "/nonexistent/cert.pem", keyFile: "/nonexistent/key.pem")
        } throws: { error in
            guard case .configuration = error as? TLSFailure else { return false }
            return true
        }
    }

    /// Addresses get no SNI and an IP check (RFC 6066 §3); names get both.
    @Test(arguments: [
        ("127.0.0.1", true), ("::1", true), ("fe80::1", true), ("localhost", false),
        ("accounts.example", false), ("1.example", false),
    ])
    func ipLiteralsAreToldFromNames(host: String, isLiteral: Bool) {
        #expect(TLSEngine.isIPLiteral(host) == isLiteral)
    }
}
