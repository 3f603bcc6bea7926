import Foundation
import RegexBuilder
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The operations features against the real binary: /metrics, the per-client rate limit
/// (and X-Forwarded-For from trusted proxies only), CORS, request ids in answers and
/// logs, the JSON log format, and /metrics moving to the admin port.
@Suite(.resourceClass(.processes)) struct OperationsTests {
    /// One sample of the text exposition: `name{labels} value`. A function: a Regex is
    /// not Sendable, so it cannot be a static constant.
    static func isSample(_ line: Substring) -> Bool {
        let name = #/[a-zA-Z_:][a-zA-Z0-9_:]*/#
        let labels = #/\{([a-zA-Z_][a-zA-Z0-9_]*="[^"\\]*",?)*\}/#
        let value = #/-?[0-9.e+Inf]+/#
        return line.wholeMatch(
            of: Regex {
                name; Optionally { labels }; " "; value
            }) != nil
    }

    /// The body of GET /metrics, after checking every line is a comment or a sample.
    static func scrape(_ port: UInt16) async throws -> String {
        let answer = try await Exchange.request("GET", "/metrics", port: port)
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        for line in answer.body.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(Self.isSample(line), "not a sample: \(line)")
        }
        return answer.body
    }

    static func sandbox(_ environment: [String: String]) async throws -> TokenSwapProcess {
        try await TokenSwapProcess.serve(["--sandbox"], environment: environment)
    }

    @Test func metricsParseAndCountASwapWithoutASecret() async throws {
        let stack = try await StubStack.start()
        let swap = try await Exchange.form("/v1/swap", port: stack.port, [("code", "code-metrics")])
        #expect(swap.status == 200)
        let sealed = try #require(swap.string("refresh_token"))
        let refresh = try await Exchange.form(
            "/v1/refresh", port: stack.port, [("refresh_token", sealed)])
        #expect(refresh.status == 200)
        _ = try await Exchange.request(
            "GET", "/no/such/path/\(Deployment.random(8))", port: stack.port)
        // The connections of the requests before may still be closing on the server's
        // loop when the first scrape arrives (CI saw 2): scrape again until only the
        // scrape's own is open; the poll's limit keeps a real miscount failing.
        var text = ""
        try await pollUntil(every: .milliseconds(50)) {
            text = try await Self.scrape(stack.port)
            return text.contains("tokenswap_http_connections_open 1")
        }
        for line in [
            #"tokenswap_http_requests_total{route="/v1/swap",method="POST",status="200"} 1"#,
            #"tokenswap_http_requests_total{route="/v1/refresh",method="POST",status="200"} 1"#,
            #"tokenswap_http_requests_total{route="unmatched",method="unmatched",status="404"} 1"#,
            #"tokenswap_http_request_duration_seconds_count{route="/v1/swap",method="POST"} 1"#,
            #"tokenswap_upstream_requests_total{provider="spotify",outcome="ok"} 2"#,
            #"tokenswap_sealed_token_opens_total{kid="A"} 1"#,
            #"tokenswap_http_rejections_total{reason="rate_limited"} 0"#,
            "tokenswap_http_connections_open 1",
        ] {
            #expect(text.contains(line), "missing: \(line)")
        }
        // Operations endpoints are not counted; the raw unknown path is not a label.
        #expect(!text.contains("/metrics\""))
        #expect(!text.contains("/no/such"))
        #expect(try await stack.finish(secrets: ["code-metrics", sealed, "stub-refresh"]) == 0)
        expectNoSecrets(
            in: [text],
            [stack.deployment.clientSecret, "code-metrics", sealed, "stub-refresh"]
                + Deployment.keyMaterial(stack.keys))
    }

    @Test func overTheRateA429WithRetryAfterThenRecovery() async throws {
        // One token every 10 s: a machine that stalls the test for a few seconds between
        // the limited requests does not refill the bucket before they are sent (at 0.2 a
        // 5 s stall once did, in CI).
        let server = try await Self.sandbox([
            "TOKENSWAP_RATE_LIMIT": "0.1", "TOKENSWAP_RATE_LIMIT_BURST": "2",
        ])
        for _ in 0..<2 {
            let allowed = try await Exchange.form(
                "/v1/swap", port: server.port, [("code", "sandbox-invalid")])
            #expect(allowed.status == 400)
        }
        let limited = try await Exchange.form(
            "/v1/swap", port: server.port, [("code", "sandbox-invalid")])
        #expect(limited.status == 429)
        #expect(limited.error == "rate_limited")
        #expect(limited.header("Cache-Control") == "no-store")
        let retryAfter = try #require(limited.header("Retry-After").flatMap { Int($0) })
        #expect(retryAfter >= 1)
        // The limit is per client, not per path; operations endpoints are never limited.
        #expect(
            try await Exchange.form("/refresh", port: server.port, [("refresh_token", "x")]).status
                == 429)
        for _ in 0..<5 {
            #expect(try await Exchange.request("GET", "/healthz", port: server.port).status == 200)
        }
        // Time itself is what is tested: the limit lifts after the Retry-After it named.
        try await Task.sleep(for: .seconds(retryAfter))
        let recovered = try await Exchange.form(
            "/v1/swap", port: server.port, [("code", "sandbox-invalid")])
        #expect(recovered.status == 400)
        let text = try await Self.scrape(server.port)
        #expect(text.contains(#"tokenswap_http_rejections_total{reason="rate_limited"} 2"#))
        #expect(
            text.contains(
                #"tokenswap_http_requests_total{route="/v1/swap",method="POST",status="429"} 1"#))
        #expect(try await server.stop() == 0)
        #expect(server.standardOutput.contains("outcome=rate_limited path=/v1/swap"))
        #expect(server.standardOutput.contains("status=429"))
    }

    static func swap(_ port: UInt16, forwardedFor: String) async throws -> Int {
        try await Exchange.request(
            "POST", "/v1/swap", port: port,
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"),
                ("X-Forwarded-For", forwardedFor),
            ],
            body: "code=sandbox-invalid"
        ).status
    }

    @Test func forwardedForCountsOnlyFromATrustedProxy() async throws {
        // One token every 100 s: no refill during the test, however slowly it runs.
        let limit = ["TOKENSWAP_RATE_LIMIT": "0.01", "TOKENSWAP_RATE_LIMIT_BURST": "1"]
        // The test's loopback connection is the trusted proxy: each forwarded client
        // has its own bucket.
        let behindProxy = try await Self.sandbox(
            limit.merging(["TOKENSWAP_TRUSTED_PROXIES": "10.0.0.0/8,127.0.0.1"]) { $1 })
        #expect(try await Self.swap(behindProxy.port, forwardedFor: "198.51.100.1") == 400)
        #expect(try await Self.swap(behindProxy.port, forwardedFor: "198.51.100.1") == 429)
        // A spoofed left-most entry does not make a new client: right-most untrusted wins.
        #expect(
            try await Self.swap(behindProxy.port, forwardedFor: "203.0.113.7, 198.51.100.1") == 429)
        #expect(try await Self.swap(behindProxy.port, forwardedFor: "198.51.100.2") == 400)
        #expect(
            try await Self.swap(behindProxy.port, forwardedFor: "198.51.100.3, 10.1.2.3") == 400)
        #expect(try await behindProxy.stop() == 0)

        // Loopback is not trusted here: the header is ignored and the peer is the client.
        let direct = try await Self.sandbox(
            limit.merging(["TOKENSWAP_TRUSTED_PROXIES": "10.0.0.0/8"]) { $1 })
        #expect(try await Self.swap(direct.port, forwardedFor: "198.51.100.1") == 400)
        #expect(try await Self.swap(direct.port, forwardedFor: "198.51.100.2") == 429)
        #expect(try await direct.stop() == 0)
    }

    @Test func corsPreflightAndActualRequest() async throws {
        let server = try await Self.sandbox([
            "TOKENSWAP_CORS_ORIGINS": "https://app.example,http://localhost:5173"
        ])
        let preflight = try await Exchange.request(
            "OPTIONS", "/v1/swap", port: server.port,
            headers: [
                ("Origin", "https://app.example"), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type,x-request-id"),
            ])
        #expect(preflight.status == 204)
        #expect(preflight.header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(preflight.header("Access-Control-Allow-Methods") == "POST")
        let allowedHeaders = preflight.header("Access-Control-Allow-Headers")?.lowercased() ?? ""
        #expect(allowedHeaders.contains("content-type") && allowedHeaders.contains("x-request-id"))
        #expect(Int(preflight.header("Access-Control-Max-Age") ?? "") ?? 0 > 0)
        #expect(preflight.header("Vary") == "Origin")
        #expect(preflight.header("Access-Control-Allow-Credentials") == nil)

        let denied = try await Exchange.request(
            "OPTIONS", "/v1/refresh", port: server.port,
            headers: [
                ("Origin", "https://evil.example"), ("Access-Control-Request-Method", "POST"),
            ])
        #expect(denied.status == 403)
        #expect(denied.error == "origin_not_allowed")
        #expect(!denied.headers.contains { $0.name.lowercased().hasPrefix("access-control") })

        let actual = try await Exchange.request(
            "POST", "/v1/swap", port: server.port,
            headers: [
                ("Origin", "http://localhost:5173"),
                ("Content-Type", "application/x-www-form-urlencoded"),
            ],
            body: "code=sandbox-invalid")
        #expect(actual.status == 400)
        #expect(actual.header("Access-Control-Allow-Origin") == "http://localhost:5173")
        #expect(actual.header("Vary") == "Origin")
        let other = try await Exchange.request(
            "POST", "/v1/swap", port: server.port,
            headers: [
                ("Origin", "https://evil.example"),
                ("Content-Type", "application/x-www-form-urlencoded"),
            ],
            body: "code=sandbox-invalid")
        #expect(other.status == 400)
        #expect(!other.headers.contains { $0.name.lowercased().hasPrefix("access-control") })
        #expect(try await server.stop() == 0)

        // Without TOKENSWAP_CORS_ORIGINS nothing is allowed: OPTIONS is a 405.
        let plain = try await Self.sandbox([:])
        let options = try await Exchange.request(
            "OPTIONS", "/v1/swap", port: plain.port, headers: [("Origin", "https://app.example")])
        #expect(options.status == 405)
        #expect(options.header("Access-Control-Allow-Origin") == nil)
        let post = try await Exchange.request(
            "POST", "/v1/swap", port: plain.port,
            headers: [
                ("Origin", "https://app.example"),
                ("Content-Type", "application/x-www-form-urlencoded"),
            ],
            body: "code=sandbox-invalid")
        #expect(post.header("Access-Control-Allow-Origin") == nil)
        #expect(try await plain.stop() == 0)
    }

    @Test func requestIdsAreEchoedAndLogged() async throws {
        let server = try await Self.sandbox([:])
        let sent = "req-" + Deployment.random(12)
        let token = try await Exchange.request(
            "POST", "/v1/swap", port: server.port,
            headers: [
                ("X-Request-Id", sent), ("Content-Type", "application/x-www-form-urlencoded"),
            ],
            body: "code=sandbox-invalid")
        #expect(token.header("X-Request-Id") == sent)
        let health = try await Exchange.request(
            "GET", "/healthz", port: server.port, headers: [("X-Request-Id", sent + "-h")])
        #expect(health.header("X-Request-Id") == sent + "-h")
        // Unsafe or oversized ids are replaced by a fresh 128-bit one.
        let tooLong = String(repeating: "a", count: 200)
        let replaced = try await Exchange.request(
            "GET", "/readyz", port: server.port, headers: [("X-Request-Id", tooLong)])
        let minted = try #require(replaced.header("X-Request-Id"))
        #expect(minted.count == 32 && minted.allSatisfy(\.isHexDigit))
        let none = try await Exchange.request("GET", "/healthz", port: server.port)
        #expect(none.header("X-Request-Id")?.count == 32)
        #expect(try await server.stop() == 0)
        let log = server.standardOutput
        #expect(log.contains("request_id=\(sent) "), "token line")
        #expect(log.contains("request_id=\(sent)-h"), "operations line")
        #expect(log.contains("request_id=\(minted)"))
        #expect(!log.contains(tooLong))
    }

    @Test func jsonLogLinesParseAndHoldNoSecret() async throws {
        let stack = try await StubStack.start(extra: ["TOKENSWAP_LOG_FORMAT": "json"])
        let sent = "json-" + Deployment.random(10)
        let swap = try await Exchange.request(
            "POST", "/v1/swap", port: stack.port,
            headers: [
                ("X-Request-Id", sent), ("Content-Type", "application/x-www-form-urlencoded"),
            ],
            body: "code=code-json-log")
        #expect(swap.status == 200)
        let sealed = try #require(swap.string("refresh_token"))
        _ = try await Exchange.form("/v1/refresh", port: stack.port, [("refresh_token", sealed)])
        #expect(try await stack.finish(secrets: ["code-json-log", sealed, "stub-refresh"]) == 0)
        let lines = stack.server.standardOutput.split(separator: "\n").filter {
            $0.hasPrefix("{")
        }
        #expect(lines.count >= 2)
        var objects: [[String: Any]] = []
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            objects.append(try #require(object, "not a JSON object: \(line)"))
        }
        let tokenLine = try #require(objects.first { $0["request_id"] as? String == sent })
        #expect(tokenLine["message"] as? String == "token request")
        #expect(tokenLine["path"] as? String == "/v1/swap")
        #expect(tokenLine["status"] as? String == "200")
        #expect(tokenLine["level"] as? String == "info")
        #expect(objects.allSatisfy { $0["time"] is String })
    }

    @Test func theAdminPortListensOnTheAdminHost() async throws {
        // 127.0.0.2 is loopback too (127/8), but not the main host.
        let server = try await TokenSwapProcess.serve(
            ["--sandbox"],
            environment: ["TOKENSWAP_ADMIN_PORT": "0", "TOKENSWAP_ADMIN_HOST": "127.0.0.2"])
        let admin = try #require(server.adminPort)
        let answer = try await offPool {
            try ChildProcess.run(
                "/usr/bin/env",
                [
                    "curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}",
                    "http://127.0.0.2:\(admin)/healthz",
                ], timeoutSeconds: 10)
        }
        #expect(answer.stdout == "200")
        // Nothing of the admin port on the main host. Asked of this process's own sockets:
        // a connect to 127.0.0.1 at the same number could reach another test's server.
        let listening = try ListeningSockets.of(pid: server.process.pid)
        #expect(listening.contains(.init(host: "127.0.0.2", port: admin)))
        #expect(listening.contains(.init(host: "127.0.0.1", port: server.port)))
        #expect(!listening.contains { $0.port == admin && $0.host != "127.0.0.2" })
        #expect(listening.count == 2, "\(listening)")
        #expect(try await server.stop() == 0)
    }

    @Test func theAdminPortServesMetricsAndTheMainPortDoesNot() async throws {
        let server = try await TokenSwapProcess.serve(
            ["--sandbox"], environment: ["TOKENSWAP_ADMIN_PORT": "0"])
        let admin = try #require(server.adminPort)
        _ = try await Exchange.form("/v1/swap", port: server.port, [("code", "sandbox-invalid")])
        let text = try await Self.scrape(admin)
        #expect(
            text.contains(
                #"tokenswap_http_requests_total{route="/v1/swap",method="POST",status="400"} 1"#))
        let main = try await Exchange.request("GET", "/metrics", port: server.port)
        #expect(main.status == 404)
        #expect(try await server.stop() == 0)
    }
}
