import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// openapi.yaml against the running binary: every documented method + path + status is
/// produced by a request in the table below, and every status the table produces is
/// documented. Documented operations listed in `pending` are not built yet; the test
/// fails once they are served, so the list cannot go stale (it is empty now).
@Suite(.resourceClass(.processes)) struct OpenAPIConformanceTests {
    struct Outcome: Hashable, CustomStringConvertible {
        let method: String
        let path: String
        let status: Int
        var description: String { "\(method) \(path) \(status)" }
    }

    /// Documented, not served yet.
    static let pending: Set<Outcome> = []

    /// Statuses the connection layer sends on any path before a route runs (deadlines,
    /// size limits, resource caps), so the document lists them on every operation. Each
    /// is produced here on at least one path, not on all of them.
    static let connectionLevel: Set<Int> = [408, 413, 414, 431, 503]
    /// 408 takes the header deadline to produce; IntegrationTests' ConnectionDeadlineTests
    /// prove it through a real socket.
    static let connectionLevelProvedElsewhere: Set<Int> = [408]

    static func documented() async throws -> Set<Outcome> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let spec = root.appendingPathComponent("openapi.yaml").path
        let lines: String = try await offPool {
            let result = try ChildProcess.run(
                "python3", [Fixture.path("openapi_operations.py"), spec])
            guard result.status == .exited(0) else {
                throw EndToEndFailure("openapi_operations.py failed (PyYAML installed?)")
            }
            return result.stdout
        }
        return Set(
            lines.split(separator: "\n").compactMap { line in
                let parts = line.split(separator: " ")
                guard parts.count == 3, let status = Int(parts[2]) else { return nil }
                return Outcome(method: String(parts[0]), path: String(parts[1]), status: status)
            })
    }

    static func raw(_ method: String, _ path: String, _ headers: String, _ body: String = "")
        -> [UInt8]
    {
        Array(
            "\(method) \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\(headers)\r\n\(body)"
                .utf8)
    }

    static let formHeader = "Content-Type: application/x-www-form-urlencoded\r\n"

    @Test func everyDocumentedOutcomeIsProducedAndNothingElse() async throws {
        let documented = try await Self.documented()
        #expect(documented.count > 40, "the spec was read")
        var produced: Set<Outcome> = []
        func record(_ method: String, _ path: String, _ answer: Exchange.Answer) {
            produced.insert(Outcome(method: method, path: path, status: answer.status))
        }

        // Token endpoints, in front of a stub provider told what to answer.
        // CORS on, so the preflights (OPTIONS) of the token paths are served.
        // Revocation and introspection go to the stub too (rfc7009 / rfc7662).
        let stub = try await ProviderStub.start()
        let lifecyclePaths = ["/oauth/revoke", "/oauth/introspect"]
        let stack = try await StubStack.start(
            stub: stub,
            extra: [
                "TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS": "1",
                // Off: one sealed token meets every provider answer here, which the
                // replay window (CONTRACT §12) would answer with the first one kept.
                "TOKENSWAP_REFRESH_REPLAY_SECONDS": "0",
                "TOKENSWAP_CORS_ORIGINS": "https://app.example",
                "TOKENSWAP_SPOTIFY_REVOCATION_URL": stub.tokenURL(lifecyclePaths[0]),
                "TOKENSWAP_SPOTIFY_INTROSPECTION_URL": stub.tokenURL(lifecyclePaths[1]),
                "TOKENSWAP_PUBLIC_URL": "https://tokens.example",
            ])
        let port = stack.port
        let swap = try await Exchange.form("/v1/swap", port: port, [("code", "code-spec")])
        let sealed = try #require(swap.string("refresh_token"))
        let tokenPaths = [
            "/v1/swap", "/swap", "/v1/{provider}/swap", "/v1/refresh", "/refresh",
            "/v1/{provider}/refresh", "/v1/token", "/v1/{provider}/token", "/v1/revoke",
            "/v1/{provider}/revoke", "/v1/introspect", "/v1/{provider}/introspect",
        ]
        func concrete(_ path: String, provider: String = "spotify") -> String {
            path.replacingOccurrences(of: "{provider}", with: provider)
        }
        func validFields(_ path: String) -> [(String, String)] {
            if path.hasSuffix("swap") { return [("code", "code-spec")] }
            if path.hasSuffix("refresh") { return [("refresh_token", sealed)] }
            if path.hasSuffix("token") {
                return [("grant_type", "authorization_code"), ("code", "code-spec")]
            }
            return [("token", "at-spec")]
        }
        func invalidBody(_ path: String) -> String {
            if path.hasSuffix("swap") { return "code=" }
            if path.hasSuffix("refresh") { return "refresh_token=not-sealed" }
            if path.hasSuffix("token") { return "grant_type=authorization_code&code=" }
            return "token="
        }
        let providerAnswers:
            [(status: Int, headers: [(String, String)], body: String, mode: String)] = [
                (200, [], #"{"access_token":"a","token_type":"Bearer","expires_in":60}"#, "normal"),
                (401, [], #"{"error":"invalid_client"}"#, "normal"),
                (429, [("Retry-After", "3")], "busy", "normal"),
                (500, [], "down", "normal"),
                (200, [], "{}", "slow"),
            ]
        for answer in providerAnswers {
            try await stack.stub.answer(
                status: answer.status, headers: answer.headers, body: answer.body,
                mode: answer.mode, delayMilliseconds: answer.mode == "slow" ? 5000 : 0)
            for path in lifecyclePaths {
                let introspection = path.hasSuffix("introspect") && answer.status == 200
                try await stack.stub.answer(
                    status: answer.status, headers: answer.headers,
                    body: introspection ? #"{"active":true,"scope":"s"}"# : answer.body,
                    mode: answer.mode, delayMilliseconds: answer.mode == "slow" ? 5000 : 0,
                    path: path)
            }
            for path in tokenPaths {
                record(
                    "POST", path,
                    try await Exchange.form(concrete(path), port: port, validFields(path)))
            }
        }
        for path in tokenPaths {
            let target = concrete(path)
            let invalid = invalidBody(path)
            let attempts: [[UInt8]] = [
                Self.raw(
                    "POST", target, Self.formHeader + "Content-Length: \(invalid.utf8.count)\r\n",
                    invalid),
                Self.raw("POST", target, "Content-Type: text/plain\r\nContent-Length: 1\r\n", "x"),
                Self.raw("POST", target, Self.formHeader + "Content-Length: 100000\r\n"),
                Self.raw(
                    "POST", target,
                    String(
                        repeating: "X-Filler: \(String(repeating: "f", count: 1000))\r\n", count: 20
                    )
                        + "Content-Length: 0\r\n"),
                Self.raw("GET", target, ""),
            ]
            for bytes in attempts {
                let answer = try await Exchange.send(bytes, port: port)
                let method = bytes.starts(with: Array("GET".utf8)) ? "GET" : "POST"
                // 405 is documented on the POST operation that the wrong method reached.
                record(method == "GET" && answer.status == 405 ? "POST" : method, path, answer)
            }
            try await Self.recordProviderAndPreflights(
                path, fields: validFields(path), port: port, record)
        }
        let metadataPath = "/.well-known/oauth-authorization-server/v1/{provider}"
        for name in ["spotify", "nope"] {
            record(
                "GET", metadataPath,
                try await Exchange.request(
                    "GET", concrete(metadataPath, provider: name), port: port))
        }
        record("GET", "/healthz", try await Exchange.request("GET", "/healthz", port: port))
        record("GET", "/metrics", try await Exchange.request("GET", "/metrics", port: port))
        #expect(try await stack.finish(secrets: ["code-spec", sealed, "stub-refresh"]) == 0)

        // tokenswap's own per-client limit on revocation and introspection (the token
        // paths' 429 came from the provider above).
        let limited = try await TokenSwapProcess.serve(
            ["--sandbox"],
            environment: ["TOKENSWAP_RATE_LIMIT": "0.01", "TOKENSWAP_RATE_LIMIT_BURST": "1"])
        for path in ["/v1/revoke", "/v1/{provider}/revoke", "/v1/{provider}/introspect"] {
            for _ in 0..<2 {
                record(
                    "POST", path,
                    try await Exchange.form(concrete(path), port: limited.port, [("token", "x")]))
            }
        }
        record(
            "POST", "/v1/introspect",
            try await Exchange.form("/v1/introspect", port: limited.port, [("token", "x")]))
        // CORS off here and introspection on: its preflights are 405s.
        for path in ["/v1/introspect", "/v1/{provider}/introspect"] {
            record(
                "OPTIONS", path,
                try await Exchange.request("OPTIONS", concrete(path), port: limited.port))
        }
        #expect(try await limited.stop() == 0)

        // The sandbox: authorize, its token endpoint, and /readyz through a drain.
        let sandboxSecret = "secret-sbx-" + Deployment.random(12)
        let sandbox = try await TokenSwapProcess.serve(
            ["--sandbox", "--unready-seconds", "5"],
            environment: [
                "TOKENSWAP_CLIENT_ID": "sbx", "TOKENSWAP_CLIENT_SECRET": sandboxSecret,
                // /v1/introspect is then absent (404); /sandbox/introspect stays.
                "TOKENSWAP_SPOTIFY_INTROSPECTION_STYLE": "none",
            ])
        let code = try await SandboxFlowTests.authorize(sandbox.port)
        record(
            "GET", "/sandbox/authorize",
            try await Exchange.request(
                "GET", "/sandbox/authorize?redirect_uri=%zz", port: sandbox.port))
        record(
            "GET", "/sandbox/authorize",
            try await Exchange.request(
                "GET",
                "/sandbox/authorize?redirect_uri=\(Exchange.encode(SandboxFlowTests.redirect))",
                port: sandbox.port))
        let basic = "Basic " + Data("sbx:\(sandboxSecret)".utf8).base64EncodedString()
        let tokenBody =
            "grant_type=authorization_code&code=\(code)&redirect_uri=\(Exchange.encode(SandboxFlowTests.redirect))"
        for (authorization, body) in [
            (basic, tokenBody), (basic, "grant_type=authorization_code"),
            ("Basic " + Data("sbx:wrong".utf8).base64EncodedString(), tokenBody),
        ] {
            record(
                "POST", "/sandbox/token",
                try await Exchange.request(
                    "POST", "/sandbox/token", port: sandbox.port,
                    headers: [
                        ("Content-Type", "application/x-www-form-urlencoded"),
                        ("Authorization", authorization),
                    ],
                    body: body))
        }
        for endpoint in ["/sandbox/revoke", "/sandbox/introspect"] {
            for (authorization, body) in [
                (basic, "token=sba-unknown"), (basic, "token_type_hint=access_token"),
                ("Basic " + Data("sbx:wrong".utf8).base64EncodedString(), "token=sba-unknown"),
            ] {
                record(
                    "POST", endpoint,
                    try await Exchange.request(
                        "POST", endpoint, port: sandbox.port,
                        headers: [
                            ("Content-Type", "application/x-www-form-urlencoded"),
                            ("Authorization", authorization),
                        ],
                        body: body))
            }
        }
        record(
            "POST", "/v1/introspect",
            try await Exchange.form("/v1/introspect", port: sandbox.port, [("token", "x")]))
        // Its token endpoint checks client secrets: guesses are rate limited per client
        // (a burst of 10, then 5 a second), and its revocation and introspection share
        // that limit. Each path is asked until it answers 429, so a machine that stalls
        // between two requests (the bucket refills) cannot hide the outcome.
        let unauthenticated = [("Content-Type", "application/x-www-form-urlencoded")]
        for (endpoint, body) in [
            ("/sandbox/token", "grant_type=authorization_code"),
            ("/sandbox/revoke", "token=x"), ("/sandbox/introspect", "token=x"),
        ] {
            for _ in 0..<60 {
                let answer = try await Exchange.request(
                    "POST", endpoint, port: sandbox.port, headers: unauthenticated, body: body)
                record("POST", endpoint, answer)
                if answer.status == 429 { break }
            }
        }
        // CORS off here: a preflight is a 405 (a 404 where the path is absent: this
        // sandbox's provider has introspection style none).
        let devicePaths = [
            "/v1/device/code", "/v1/{provider}/device/code", "/v1/device/token",
            "/v1/{provider}/device/token",
        ]
        for path in tokenPaths + devicePaths {
            record(
                "OPTIONS", path,
                try await Exchange.request("OPTIONS", concrete(path), port: sandbox.port))
        }
        // The connection layer's answers before any route: a request line over 8 KiB.
        record(
            "GET", "/healthz",
            try await Exchange.request(
                "GET", "/healthz?" + String(repeating: "q", count: 9000), port: sandbox.port))
        record("GET", "/readyz", try await Exchange.request("GET", "/readyz", port: sandbox.port))
        sandbox.signal(SIGTERM)
        // Draining: /readyz turns 503 (asked until it does, within the drain grace).
        var draining: Exchange.Answer?
        try await pollUntil(every: .milliseconds(20)) {
            draining = try await Exchange.request("GET", "/readyz", port: sandbox.port)
            return draining?.status != 200
        }
        record("GET", "/readyz", try #require(draining))
        #expect(try await sandbox.exitStatus(withinSeconds: 30) == 0)
        expectNoSecrets(in: [sandbox.output], [sandboxSecret, code])

        try await Self.deviceOutcomes(record)

        for outcome in documented.subtracting(Self.pending).sorted(by: {
            $0.description < $1.description
        })
        where !produced.contains(outcome) && !Self.connectionLevel.contains(outcome.status) {
            Issue.record("documented but not produced: \(outcome)")
        }
        for status in Self.connectionLevel.subtracting(Self.connectionLevelProvedElsewhere)
        where !produced.contains(where: { $0.status == status }) {
            Issue.record("connection-level status never produced: \(status)")
        }
        for outcome in Self.pending where produced.contains(outcome) {
            Issue.record("now served, remove it from `pending`: \(outcome)")
        }
        for outcome in produced.subtracting(documented).sorted(by: {
            $0.description < $1.description
        }) {
            Issue.record("produced but not documented: \(outcome)")
        }
    }

    /// The device grant's paths (CONTRACT §7) in front of a stub with a device endpoint,
    /// each answer of the provider on each path, and the sandbox's device endpoints.
    static func deviceOutcomes(_ record: (String, String, Exchange.Answer) -> Void) async throws {
        let stack = try await DeviceStubTests.start(extra: [
            "TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS": "1",
            "TOKENSWAP_CORS_ORIGINS": "https://app.example",
            "TOKENSWAP_DEVICE_RATE_LIMIT": "0",
        ])
        let port = stack.port
        let paths = [
            "/v1/device/code", "/v1/{provider}/device/code", "/v1/device/token",
            "/v1/{provider}/device/token",
        ]
        func concrete(_ path: String, provider: String = "spotify") -> String {
            path.replacingOccurrences(of: "{provider}", with: provider)
        }
        /// A fresh sealed device code (each poll its own, so none is answered slow_down).
        func sealedCode() async throws -> String {
            try await DeviceStubTests.answerDeviceCode(stack)
            return try #require(try await DeviceFlow.requestCode(port).string("device_code"))
        }
        let answers: [(status: Int, headers: [(String, String)], body: String, mode: String)] = [
            (200, [], #"{"access_token":"a","token_type":"Bearer","expires_in":60}"#, "normal"),
            (400, [], #"{"error":"authorization_pending"}"#, "normal"),
            (401, [], #"{"error":"invalid_client"}"#, "normal"),
            (429, [("Retry-After", "3")], "busy", "normal"),
            (500, [], "down", "normal"),
            (200, [], "{}", "slow"),
        ]
        for answer in answers {
            for path in paths {
                let isPoll = path.hasSuffix("token")
                let fields = isPoll ? [("device_code", try await sealedCode())] : []
                if isPoll || answer.status != 200 || answer.mode != "normal" {
                    try await stack.stub.answer(
                        status: answer.status, headers: answer.headers, body: answer.body,
                        mode: answer.mode, delayMilliseconds: answer.mode == "slow" ? 3000 : 0,
                        path: isPoll ? DeviceStubTests.tokenPath : DeviceStubTests.devicePath)
                } else {
                    try await DeviceStubTests.answerDeviceCode(stack)
                }
                record("POST", path, try await Exchange.form(concrete(path), port: port, fields))
            }
        }
        for path in paths {
            let target = concrete(path)
            for bytes in [
                raw("POST", target, "Content-Type: text/plain\r\nContent-Length: 1\r\n", "x"),
                raw("POST", target, formHeader + "Content-Length: 100000\r\n"),
                raw(
                    "POST", target,
                    String(
                        repeating: "X-Filler: \(String(repeating: "f", count: 1000))\r\n",
                        count: 20) + "Content-Length: 0\r\n"),
            ] {
                record("POST", path, try await Exchange.send(bytes, port: port))
            }
            let wrongMethod = try await Exchange.request("GET", target, port: port)
            record(wrongMethod.status == 405 ? "POST" : "GET", path, wrongMethod)
            try await Self.recordProviderAndPreflights(path, fields: [], port: port, record)
        }
        #expect(try await stack.finish(secrets: []) == 0)

        // CORS off: a preflight on a device path is a 405, as on the token paths.
        let plain = try await DeviceStubTests.start()
        for path in paths {
            record(
                "OPTIONS", path,
                try await Exchange.request("OPTIONS", concrete(path), port: plain.port))
        }
        #expect(try await plain.finish(secrets: []) == 0)

        // The sandbox's device endpoint and verification page.
        let sandbox = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let code = try await Exchange.request(
            "POST", "/sandbox/device/code", port: sandbox.port,
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "client_id=sandbox-spotify&scope=tv")
        record("POST", "/sandbox/device/code", code)
        record(
            "POST", "/sandbox/device/code",
            try await Exchange.request("POST", "/sandbox/device/code", port: sandbox.port, body: "")
        )
        record(
            "POST", "/sandbox/device/code",
            try await Exchange.form(
                "/sandbox/device/code", port: sandbox.port, [("client_id", "x")]))
        record(
            "GET", "/sandbox/device",
            try await Exchange.request("GET", "/sandbox/device", port: sandbox.port))
        let userCode = try #require(code.string("user_code"))
        record(
            "POST", "/sandbox/device", try await DeviceFlow.decide(sandbox.port, userCode: userCode)
        )
        record(
            "POST", "/sandbox/device", try await DeviceFlow.decide(sandbox.port, userCode: userCode)
        )
        record(
            "POST", "/sandbox/device",
            try await DeviceFlow.post(
                sandbox.port, cookie: nil, [("user_code", userCode), ("action", "approve")]))
        // Ten wrong codes a minute per client, then 429 (the used code above was the first).
        for _ in 0..<10 {
            record(
                "POST", "/sandbox/device",
                try await DeviceFlow.decide(sandbox.port, userCode: "BBBB-BBBB"))
        }
        #expect(try await sandbox.stop() == 0)
    }

    /// For a `{provider}` path, the unknown provider (404) by POST and OPTIONS; for every
    /// path, the preflight from an allowed and a refused origin.
    static func recordProviderAndPreflights(
        _ path: String, fields: [(String, String)], port: UInt16,
        _ record: (String, String, Exchange.Answer) -> Void
    ) async throws {
        if path.contains("{provider}") {
            let unknown = path.replacingOccurrences(of: "{provider}", with: "nope")
            record("POST", path, try await Exchange.form(unknown, port: port, fields))
            record(
                "OPTIONS", path,
                try await Exchange.request(
                    "OPTIONS", unknown, port: port, headers: [("Origin", "https://app.example")]))
        }
        let target = path.replacingOccurrences(of: "{provider}", with: "spotify")
        for origin in ["https://app.example", "https://evil.example"] {
            record(
                "OPTIONS", path,
                try await Exchange.request(
                    "OPTIONS", target, port: port, headers: [("Origin", origin)]))
        }
    }
}
