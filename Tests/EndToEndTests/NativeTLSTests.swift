import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// CONTRACT §10 against the real binary with real clients: `curl` and `openssl
/// s_client` over HTTPS on the main port (TLS 1.2 and 1.3 only, ECDHE+AEAD, ALPN
/// `http/1.1`), reloads on SIGHUP and on file change under load, a bad new pair keeping
/// the old one, the handshake bounded by the header deadline, `check-config`'s checks,
/// and the expiry gauge on the (plain) admin port.
@Suite(.resourceClass(.processes)) struct NativeTLSTests {
    static func serve(_ pair: ServedPair, admin: Bool = false) async throws -> TokenSwapProcess {
        var environment = pair.environment
        if admin { environment["TOKENSWAP_ADMIN_PORT"] = "0" }
        return try await TokenSwapProcess.serve(["--sandbox"], environment: environment)
    }

    static var pki: TestPKI {
        get async throws { try await offPool { TestPKI.shared } }
    }

    /// What `curl` says about one GET: status, HTTP version, TLS version.
    static func curl(_ pair: ServedPair, port: UInt16, path: String, _ extra: [String] = [])
        async throws -> (status: ChildProcess.ExitStatus, output: String)
    {
        try await offPool {
            let run = try ChildProcess.run(
                "/usr/bin/env",
                [
                    "curl", "-sS", "-o", "/dev/null", "--cacert", pair.trust, "-w",
                    "%{http_code} %{http_version} %{ssl_verify_result}",
                ] + extra + ["https://localhost:\(port)\(path)"], timeoutSeconds: 20)
            return (run.status, run.stdout + run.stderr)
        }
    }

    @Test func curlAndOpenSSLSpeakTLS12And13WithHTTP11Only() async throws {
        let pair = try await ServedPair.make()
        let server = try await Self.serve(pair)
        defer { Task { try await server.stop() } }

        // curl offers h2 and http/1.1 by ALPN; the server picks http/1.1.
        let viaCurl = try await Self.curl(pair, port: server.port, path: "/healthz", ["-v"])
        #expect(viaCurl.status == .exited(0))
        #expect(viaCurl.output.contains("200 1.1 0"), "\(viaCurl.output)")
        #expect(viaCurl.output.contains("ALPN: server accepted http/1.1"))

        let v12 = try await ServedPair.sClient(
            port: server.port, ["-tls1_2", "-alpn", "http/1.1", "-CAfile", pair.trust])
        // "New, VERSION, Cipher is …" is printed when the handshake completes (the
        // session block comes only once a TLS 1.3 ticket has arrived, which s_client,
        // reading EOF on stdin, may not wait for).
        #expect(v12.output.contains("New, TLSv1.2, Cipher is"), "\(v12.output)")
        #expect(v12.output.contains("ALPN protocol: http/1.1"))
        #expect(v12.output.contains("Verify return code: 0 (ok)"))
        // ECDHE key exchange and an AEAD cipher (GCM or ChaCha20-Poly1305).
        let cipher = v12.output.split(separator: "\n").first { $0.contains("Cipher is") } ?? ""
        #expect(
            cipher.contains("ECDHE-") && (cipher.contains("GCM") || cipher.contains("CHACHA20")))

        let v13 = try await ServedPair.sClient(port: server.port, ["-tls1_3"])
        #expect(v13.output.contains("New, TLSv1.3, Cipher is TLS_"), "\(v13.output)")

        // TLS 1.1 (RFC 8996): the server answers with a protocol_version alert.
        let v11 = try await ServedPair.sClient(
            port: server.port, ["-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"])
        #expect(v11.status != .exited(0))
        #expect(v11.output.contains("alert protocol version"), "\(v11.output)")

        // TLS 1.2 without forward secrecy or AEAD (RSA key exchange, CBC): refused.
        let weak = try await ServedPair.sClient(
            port: server.port, ["-tls1_2", "-cipher", "AES128-SHA:ECDHE-ECDSA-AES128-SHA"])
        #expect(weak.status != .exited(0))
        #expect(weak.output.contains("handshake failure"), "\(weak.output)")

        // A client that offers only h2: no common protocol (RFC 7301 §3.2).
        let h2 = try await ServedPair.sClient(port: server.port, ["-alpn", "h2"])
        #expect(h2.status != .exited(0))
        #expect(h2.output.contains("no application protocol"), "\(h2.output)")

        // Plain HTTP to the TLS port gets no HTTP answer.
        let plain = try? await Exchange.request("GET", "/healthz", port: server.port)
        #expect(plain?.status != 200)
    }

    @Test func reloadsOnSIGHUPAndOnFileChangeUnderLoadWithoutAFailedRequest() async throws {
        let pki = try await Self.pki
        let pair = try await ServedPair.make("good")
        let server = try await Self.serve(pair)
        defer { Task { try await server.stop() } }
        #expect(
            try await ServedPair.servedIssuer(port: server.port) == "issuer=CN = tokenswap test CA")

        let load = try pair.curlLoop(port: server.port, path: "/healthz", count: 150)
        // The load is running once its first answer is in.
        try await pollUntil(every: .milliseconds(20)) { load.stdout.text.contains("200") }
        // New pair in place (key first: a poll in between sees a mismatch and keeps the
        // old pair), then SIGHUP.
        try pair.replaceInPlace(certificate: pki.cert("foreign"), key: pki.key("foreign"))
        server.signal(SIGHUP)
        try await pollUntil(every: .milliseconds(20)) {
            server.standardOutput.contains("trigger=SIGHUP")
        }
        #expect(
            try await ServedPair.servedIssuer(port: server.port)
                == "issuer=CN = tokenswap other CA")
        // Back to the first pair by file change alone (renamed into place).
        try pair.replaceByRename(certificate: pki.cert("good"), key: pki.key("good"))
        // Noticed by the file poll (every second): asked until the first pair is served.
        // (Not a log line: the poll may also have logged the earlier in-place change,
        // refused half-way or loaded.)
        try await pollUntil(every: .milliseconds(200)) {
            try await ServedPair.servedIssuer(port: server.port)
                == "issuer=CN = tokenswap test CA"
        }

        let finished = await load.exitStatus(timeoutSeconds: 60)
        #expect(finished == .exited(0))
        let statuses = try await offPool { load.stdout.waitForEnd() }
            .split(separator: "\n")
        #expect(statuses.count == 150)
        #expect(statuses.allSatisfy { $0 == "200" }, "\(statuses.filter { $0 != "200" })")
        #expect(server.standardOutput.contains("tls certificate reloaded"))
        #expect(server.standardOutput.contains("trigger=SIGHUP"))
        #expect(server.standardOutput.contains("trigger=\"file change\""))
        try await server.stop()
        expectNoSecrets(in: [server.output], try Self.keyLines(pki, ["good", "foreign"]))
    }

    @Test func aBadNewPairIsLoggedAndTheOldOneKeepsServing() async throws {
        let pki = try await Self.pki
        let pair = try await ServedPair.make("good")
        let server = try await Self.serve(pair)
        defer { Task { try await server.stop() } }

        // A key that does not match the certificate.
        try Data(contentsOf: URL(fileURLWithPath: pki.key("foreign"))).write(
            to: URL(fileURLWithPath: pair.key))
        server.signal(SIGHUP)
        try await pollUntil(every: .milliseconds(20)) {
            server.standardOutput.contains("tls certificate reload refused")
        }
        #expect(server.standardOutput.contains("key values mismatch"))
        #expect(
            try await Self.curl(pair, port: server.port, path: "/healthz").output.hasPrefix("200"))
        #expect(
            try await ServedPair.servedIssuer(port: server.port) == "issuer=CN = tokenswap test CA")

        // Garbage for a certificate, noticed by the file poll.
        try pair.write(certificateText: "not a certificate\n")
        // Noticed by the file poll (every second).
        try await pollUntil(every: .milliseconds(50)) {
            server.standardOutput.contains("no start line")
        }
        #expect(server.standardOutput.contains("trigger=\"file change\""))
        #expect(
            try await Self.curl(pair, port: server.port, path: "/healthz").output.hasPrefix("200"))
        #expect(!server.standardOutput.contains("tls certificate reloaded"))
        try await server.stop()
        expectNoSecrets(in: [server.output], try Self.keyLines(pki, ["good", "foreign"]))
    }

    /// The handshake is bounded by the header deadline (10 s from accept): a client that
    /// connects and sends nothing, and one that stops half-way through its ClientHello,
    /// are both closed then.
    @Test(arguments: ["", #"printf '\026\003\001\002\000\001' >&3;"#])
    func aSilentOrStalledHandshakeIsClosedAtTheHeaderDeadline(_ send: String) async throws {
        let pair = try await ServedPair.make()
        let server = try await Self.serve(pair)
        defer { Task { try await server.stop() } }
        let started = ContinuousClock.now
        let run = try await offPool {
            try ChildProcess.run(
                "/bin/bash",
                ["-c", "exec 3<>/dev/tcp/127.0.0.1/\(server.port); \(send) cat <&3 >/dev/null"],
                timeoutSeconds: 30)
        }
        let elapsed = ContinuousClock.now - started
        #expect(run.status == .exited(0), "closed by the server, not killed by the timeout")
        #expect(elapsed >= .seconds(9), "\(elapsed)")
    }

    @Test func checkConfigCatchesAMismatchedPairAndWarnsOnNearExpiry() async throws {
        let pki = try await Self.pki
        let pair = try await ServedPair.make("good")
        // The test PKI's leaves live two days: within the 14-day warning.
        let near = try await TokenSwapProcess.run(
            ["check-config", "--sandbox"], environment: pair.environment)
        #expect(near.status == 0, "\(near.stderr)")
        #expect(
            near.stderr.contains("warning: TOKENSWAP_TLS_CERT_FILE: the certificate expires in"))
        #expect(near.stdout.contains(", https (certificate \(pair.certificate))"))
        let expired = try await ServedPair.make("expired")
        let past = try await TokenSwapProcess.run(
            ["check-config", "--sandbox"], environment: expired.environment)
        #expect(past.status == 0)
        #expect(past.stderr.contains("TOKENSWAP_TLS_CERT_FILE: the certificate has expired"))

        // A year-long self-signed pair: no warning.
        let long = try await ServedPair.make("good")
        let made = try await offPool {
            try ChildProcess.run(
                "/usr/bin/env",
                [
                    "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:P-256", "-nodes", "-keyout", long.key, "-out",
                    long.certificate, "-days", "365", "-subj", "/CN=localhost",
                ])
        }
        #expect(made.status == .exited(0))
        let fine = try await TokenSwapProcess.run(
            ["check-config", "--sandbox"], environment: long.environment)
        #expect(fine.status == 0)
        #expect(!fine.stderr.contains("TOKENSWAP_TLS"), "\(fine.stderr)")

        try Data(contentsOf: URL(fileURLWithPath: pki.key("foreign"))).write(
            to: URL(fileURLWithPath: pair.key))
        let mismatched = try await TokenSwapProcess.run(
            ["check-config", "--sandbox"], environment: pair.environment)
        #expect(mismatched.status == 2)
        #expect(
            mismatched.stderr.contains("TOKENSWAP_TLS_KEY_FILE: expected"), "\(mismatched.stderr)")
        #expect(mismatched.stderr.contains("key values mismatch"))
        // serve refuses it the same way.
        let serve = try await TokenSwapProcess.run(
            ["serve", "--sandbox", "--port", "0"], environment: pair.environment)
        #expect(serve.status == 2)
        #expect(serve.stderr.contains("TOKENSWAP_TLS_KEY_FILE"))

        var onlyCertificate = pair.environment
        onlyCertificate["TOKENSWAP_TLS_KEY_FILE"] = nil
        let half = try await TokenSwapProcess.run(
            ["check-config", "--sandbox"], environment: onlyCertificate)
        #expect(half.status == 2)
        #expect(half.stderr.contains("TOKENSWAP_TLS_KEY_FILE: required setting is missing"))

        try pair.write(certificateText: "garbage\n")
        let garbage = try await TokenSwapProcess.run(
            ["check-config", "--sandbox"], environment: pair.environment)
        #expect(garbage.status == 2)
        #expect(garbage.stderr.contains("TOKENSWAP_TLS_CERT_FILE: expected"), "\(garbage.stderr)")
        expectNoSecrets(
            in: [near.stderr, mismatched.stderr, serve.stderr, garbage.stderr],
            try Self.keyLines(pki, ["good", "foreign"]))
    }

    @Test func theExpiryGaugeFollowsTheServedCertificateOnThePlainAdminPort() async throws {
        let pki = try await Self.pki
        let pair = try await ServedPair.make("good")
        let server = try await Self.serve(pair, admin: true)
        defer { Task { try await server.stop() } }
        let adminPort = try #require(server.adminPort)
        let name = "tokenswap_tls_certificate_expiry_timestamp_seconds"

        let before = try await Exchange.request("GET", "/metrics", port: adminPort)
        #expect(before.status == 200)
        #expect(before.body.contains("\(name) \(try await Self.notAfter(pki.cert("good"))).0"))

        try pair.replaceInPlace(certificate: pki.cert("expired"), key: pki.key("expired"))
        server.signal(SIGHUP)
        let expiredAt = "\(name) \(try await Self.notAfter(pki.cert("expired"))).0"
        var after = before
        try await pollUntil(every: .milliseconds(20)) {
            after = try await Exchange.request("GET", "/metrics", port: adminPort)
            return after.body.contains(expiredAt)
        }
        #expect(!after.body.contains("\(name) \(try await Self.notAfter(pki.cert("good"))).0"))
    }

    /// notAfter of `certificate` in seconds since the epoch, as `openssl` and `date` say.
    static func notAfter(_ certificate: String) async throws -> Int {
        let run = try await offPool {
            try ChildProcess.run(
                "/bin/bash",
                [
                    "-c",
                    "date -d \"$(openssl x509 -noout -enddate -in '\(certificate)' | cut -d= -f2)\" +%s",
                ])
        }
        return try #require(Int(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// The base64 lines of the leaves' private keys: none may reach any output.
    static func keyLines(_ pki: TestPKI, _ leaves: [String]) throws -> [String] {
        try leaves.flatMap { leaf in
            try String(contentsOfFile: pki.key(leaf), encoding: .utf8)
                .split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
        }
    }
}
