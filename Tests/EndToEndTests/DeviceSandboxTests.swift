import Foundation
import Testing

/// The device authorization grant (CONTRACT §7) through the real binary against
/// `--sandbox`, in both dialects: the sandbox answers the RFC 8628 provider in RFC shapes
/// and a provider whose dialect is `l2p` in L2P's (HTTP 200 and `status` strings), so
/// tokenswap's mapping runs end to end.
@Suite(.serialized, .resourceClass(.processes)) struct DeviceSandboxTests {
    /// `(environment, path prefix)` of each dialect's sandbox provider.
    static let dialects: [(String, [String: String], String)] = [
        ("rfc8628", [:], "/v1"),
        ("l2p", ["TOKENSWAP_PROVIDERS": "spotify,l2p"], "/v1/l2p"),
    ]

    @Test(arguments: [0, 1])
    func wholeFlowCodePendingApproveTokensRefresh(_ index: Int) async throws {
        let (dialect, environment, prefix) = Self.dialects[index]
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: environment)
        let port = server.port

        let code = try await DeviceFlow.requestCode(port, prefix: prefix, scope: "tv")
        #expect(code.status == 200, "\(dialect)")
        #expect(code.header("Cache-Control") == "no-store")
        let sealed = try #require(code.string("device_code"))
        let userCode = try #require(code.string("user_code"))
        let page = try #require(code.string("verification_uri"))
        let complete = try #require(code.string("verification_uri_complete"))
        #expect(code.json?["expires_in"] as? Int == 600)
        #expect(code.json?["interval"] as? Int == 1)
        #expect(page == "http://127.0.0.1:\(port)/sandbox/device")
        // RFC: the sandbox sends the complete URI; L2P: tokenswap builds it.
        #expect(
            complete
                == (dialect == "l2p"
                    ? page + "?q=verify&d=" + userCode : page + "?user_code=" + userCode))
        #expect(!sealed.hasPrefix("sbd-"), "the provider's device code is sealed")
        #expect(code.json?["status"] == nil, "L2P members do not leak through")

        let pending = try await DeviceFlow.poll(port, prefix: prefix, deviceCode: sealed)
        #expect(pending.status == 400)
        #expect(pending.error == "authorization_pending")
        #expect(DeviceFlow.interval(pending) == 1)

        // The page the verification URI opens, pre-filled with the code.
        let path = String(complete.dropFirst("http://127.0.0.1:\(port)".count))
        let form = try await Exchange.request("GET", path, port: port)
        #expect(form.status == 200)
        #expect(form.header("Content-Type") == "text/html; charset=utf-8")
        #expect(form.body.contains(#"value="\#(userCode)""#))
        #expect(form.body.contains(#"<label for="user_code">"#))
        #expect(!form.body.lowercased().contains("<script"))

        let approved = try await DeviceFlow.decide(port, userCode: userCode.lowercased())
        #expect(approved.status == 200)
        #expect(approved.body.contains("Device connected"))

        try await DeviceFlow.wait(seconds: 1)
        let tokens = try await DeviceFlow.poll(port, prefix: prefix, deviceCode: sealed)
        #expect(tokens.status == 200, "\(tokens)")
        #expect(tokens.json?["expires_in"] is Int)
        #expect(tokens.string("scope") == "tv")
        let access = try #require(tokens.string("access_token"))
        let refreshToken = try #require(tokens.string("refresh_token"))
        #expect(!refreshToken.hasPrefix("sbr-"), "the refresh token is sealed")

        let refreshed = try await Exchange.form(
            prefix == "/v1" ? "/v1/refresh" : prefix + "/refresh", port: port,
            [("refresh_token", refreshToken)])
        #expect(refreshed.status == 200, "\(refreshed)")
        let rotated = try #require(refreshed.string("refresh_token"))

        // The sandbox spent the device code, but a repeat within the replay window gets
        // the same tokens without a provider call (CONTRACT §12): a TV whose answer was
        // lost is not sent back to the start.
        try await DeviceFlow.wait(seconds: 1)
        let repeated = try await DeviceFlow.poll(port, prefix: prefix, deviceCode: sealed)
        #expect(repeated.status == 200, "\(repeated)")
        #expect(repeated.string("access_token") == access)
        #expect(repeated.string("refresh_token") == refreshToken)

        #expect(
            try await DeviceFlow.metric(
                port,
                #"tokenswap_device_codes_issued_total{provider="\#(index == 0 ? "spotify" : "l2p")"}"#
            )
                == 1)
        #expect(try await server.stop() == 0)
        expectNoSecrets(
            in: [server.output],
            [sealed, userCode, Self.compact(userCode), access, refreshToken, rotated])
    }

    static func compact(_ userCode: String) -> String {
        userCode.replacingOccurrences(of: "-", with: "")
    }

    /// The magic scopes end the poll the way each dialect says it, and tokenswap answers
    /// RFC 8628 §3.5 whatever the shape.
    @Test(arguments: [0, 1])
    func magicScopesDenyExpireSlowDown(_ index: Int) async throws {
        let (dialect, environment, prefix) = Self.dialects[index]
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: environment)
        for (scope, error, interval) in [
            ("sandbox-deny", "access_denied", nil), ("sandbox-expire", "expired_token", nil),
            ("read sandbox-slow-down", "slow_down", 6),
        ] as [(String, String, Int?)] {
            let code = try await DeviceFlow.requestCode(server.port, prefix: prefix, scope: scope)
            let sealed = try #require(code.string("device_code"))
            let poll = try await DeviceFlow.poll(server.port, prefix: prefix, deviceCode: sealed)
            #expect(poll.status == 400, "\(dialect) \(scope)")
            #expect(poll.error == error, "\(dialect) \(scope)")
            #expect(DeviceFlow.interval(poll) == interval, "\(dialect) \(scope)")
        }
        let provider = index == 0 ? "spotify" : "l2p"
        #expect(
            try await DeviceFlow.metric(
                server.port,
                #"tokenswap_device_polls_total{provider="\#(provider)",outcome="slow_down_upstream"}"#
            )
                == 1)
        #expect(try await server.stop() == 0)
    }

    /// A user who denies on the page: the device's next poll is `access_denied`.
    @Test func userDeniesOnThePage() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let code = try await DeviceFlow.requestCode(server.port)
        let sealed = try #require(code.string("device_code"))
        let userCode = try #require(code.string("user_code"))
        let denied = try await DeviceFlow.decide(server.port, userCode: userCode, approve: false)
        #expect(denied.status == 200)
        #expect(denied.body.contains("Request denied"))
        let poll = try await DeviceFlow.poll(server.port, deviceCode: sealed)
        #expect(poll.error == "access_denied")
        #expect(DeviceFlow.interval(poll) == nil)
        // The code was used: approving it now is refused on the page.
        let late = try await DeviceFlow.decide(server.port, userCode: userCode)
        #expect(late.status == 400)
        #expect(late.body.contains("unknown, expired or already used"))
        #expect(try await server.stop() == 0)
    }

    /// RFC 8628 §3.5: a poll sooner than the interval is `slow_down` from tokenswap
    /// itself, and the interval grows by 5 s each time; the sandbox is not asked. A
    /// stalled attempt (`DeviceFlow.pollTwiceAtOnce`) tries a new code.
    @Test func localSlowDownRaisesTheInterval() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        var shown = false
        // Counted from the answers: a code and every poll not answered slow_down reach the
        // sandbox; a slow_down is tokenswap's own.
        var asked = 0
        var slowDowns = 0
        func count(_ answer: Exchange.Answer) {
            if answer.error == "slow_down" { slowDowns += 1 } else { asked += 1 }
        }
        for _ in 0..<5 where !shown {
            let (sealed, first, second, quick) = try await DeviceFlow.pollTwiceAtOnce(
                code: server.port, first: server.port, second: server.port)
            asked += 1  // the code
            count(first)
            count(second)
            guard quick else { continue }
            shown = true
            #expect(first.error == "authorization_pending")
            #expect(second.status == 400)
            #expect(second.error == "slow_down")
            #expect(DeviceFlow.interval(second) == 6)
            let third = try await DeviceFlow.poll(server.port, deviceCode: sealed)
            count(third)
            #expect(DeviceFlow.interval(third) == 11)
        }
        #expect(shown, "five attempts each took a second or more for two polls")
        let local = #"tokenswap_device_polls_total{provider="spotify",outcome="slow_down_local"}"#
        #expect(try await DeviceFlow.metric(server.port, local) == Double(slowDowns))
        let upstream = #"tokenswap_upstream_requests_total{provider="spotify",outcome="ok"}"#
        #expect(try await DeviceFlow.metric(server.port, upstream) == Double(asked))
        #expect(try await server.stop() == 0)
    }

    /// CONTRACT §7: a sealed refresh token is not a device code, a sealed device code is
    /// not a refresh token, and a device code of one provider does not open for another.
    @Test func sealedKindsAndProvidersDoNotMix() async throws {
        let server = try await TokenSwapProcess.serve(
            ["--sandbox"], environment: ["TOKENSWAP_PROVIDERS": "spotify,l2p"])
        let port = server.port
        let code = try await DeviceFlow.requestCode(port)
        let sealedDevice = try #require(code.string("device_code"))
        let authorize = try await SandboxFlowTests.authorize(port)
        let swap = try await Exchange.form("/v1/swap", port: port, [("code", authorize)])
        let sealedRefresh = try #require(swap.string("refresh_token"))

        let refreshAsDevice = try await DeviceFlow.poll(port, deviceCode: sealedRefresh)
        #expect(refreshAsDevice.status == 400)
        #expect(refreshAsDevice.error == "invalid_grant")
        let deviceAsRefresh = try await Exchange.form(
            "/v1/refresh", port: port, [("refresh_token", sealedDevice)])
        #expect(deviceAsRefresh.status == 400)
        #expect(deviceAsRefresh.error == "invalid_grant")
        let otherProvider = try await DeviceFlow.poll(
            port, prefix: "/v1/l2p", deviceCode: sealedDevice)
        #expect(otherProvider.error == "invalid_grant")
        var tampered = Array(sealedDevice)
        tampered[tampered.count / 2] = tampered[tampered.count / 2] == "A" ? "B" : "A"
        let broken = try await DeviceFlow.poll(port, deviceCode: String(tampered))
        #expect(broken.error == "invalid_grant")
        let missing = try await Exchange.form("/v1/device/token", port: port, [])
        #expect(missing.status == 400)
        #expect(missing.error == "invalid_request")
        // None of these reached the sandbox: only the device code request and the swap did.
        let calls = #"tokenswap_upstream_requests_total{provider="spotify",outcome="ok"}"#
        #expect(try await DeviceFlow.metric(port, calls) == 2)
        #expect(try await server.stop() == 0)
    }

    /// `TOKENSWAP_DEVICE_RATE_LIMIT` (per minute, per client): the call over it is 429
    /// `rate_limited` with `Retry-After`, on top of (not instead of) the general limit.
    @Test func deviceCodeRateLimit() async throws {
        let server = try await TokenSwapProcess.serve(
            ["--sandbox"], environment: ["TOKENSWAP_DEVICE_RATE_LIMIT": "2"])
        for _ in 0..<2 {
            #expect(try await DeviceFlow.requestCode(server.port).status == 200)
        }
        let limited = try await DeviceFlow.requestCode(server.port)
        #expect(limited.status == 429)
        #expect(limited.error == "rate_limited")
        let retryAfter = try #require(limited.header("Retry-After").flatMap { Int($0) })
        #expect((1...30).contains(retryAfter))
        // Polls are not device requests: they stay unlimited by it.
        #expect(try await Exchange.form("/v1/device/token", port: server.port, []).status == 400)
        #expect(try await server.stop() == 0)
    }

    /// The default is 10 a minute: ten at once, then 429. (One more may pass if the machine
    /// stalls six seconds between two requests, which refills one.)
    @Test func deviceCodeRateLimitDefaultsToTenAMinute() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        var statuses: [Int] = []
        while statuses.count < 12, statuses.last != 429 {
            statuses.append(try await DeviceFlow.requestCode(server.port).status)
        }
        #expect(statuses.prefix(10) == ArraySlice(repeating: 200, count: 10), "\(statuses)")
        #expect(statuses.last == 429, "\(statuses)")
        #expect(try await server.stop() == 0)
    }

    /// The page echoes what it was given only escaped, and refuses nonsense with a 400.
    @Test func verificationPageEscapesWhatItEchoes() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let attack = #""><script>alert(1)</script>'`&"#
        let page = try await Exchange.request(
            "GET", "/sandbox/device?user_code=\(Exchange.encode(attack))", port: server.port)
        #expect(page.status == 200)
        #expect(!page.body.contains("<script>"))
        #expect(
            page.body.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&#39;&#96;&amp;"))
        #expect(page.header("X-Frame-Options") == "DENY")
        #expect(page.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
        let posted = try await DeviceFlow.decide(server.port, userCode: attack)
        #expect(posted.status == 400)
        #expect(!posted.body.contains("<script>"))
        let (cookie, token) = try await DeviceFlow.formToken(server.port)
        let noAction = try await DeviceFlow.post(
            server.port, cookie: cookie, [("form_token", token), ("user_code", "BCDF-GHJK")])
        #expect(noAction.status == 400)
        #expect(try await server.stop() == 0)
    }

    /// The page's CSRF token (issue 18): a decision posted without the form token of this
    /// browser's page (another site's form, a forged or foreign token, no cookie) is
    /// `403` and decides nothing; before, any POST with a user code approved the device.
    @Test func aDecisionWithoutThePagesFormTokenIsRefused() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let code = try await DeviceFlow.requestCode(server.port, scope: "tv")
        let userCode = try #require(code.string("user_code"))
        let sealed = try #require(code.string("device_code"))
        let (cookie, token) = try await DeviceFlow.formToken(server.port)
        let (otherCookie, otherToken) = try await DeviceFlow.formToken(server.port)
        #expect(cookie != otherCookie && token != otherToken)
        let approve = [("user_code", userCode), ("action", "approve")]
        let forged = String(repeating: "A", count: token.count)
        for (name, cookieSent, fields) in [
            ("no token, no cookie", nil, approve),
            ("no token", cookie, approve),
            ("token without its cookie", nil, [("form_token", token)] + approve),
            ("another page's token", cookie, [("form_token", otherToken)] + approve),
            ("forged token", cookie, [("form_token", forged)] + approve),
            ("empty token", cookie, [("form_token", "")] + approve),
        ] as [(String, String?, [(String, String)])] {
            let refused = try await DeviceFlow.post(server.port, cookie: cookieSent, fields)
            #expect(refused.status == 403, "\(name)")
            #expect(refused.body.contains("This page expired"), "\(name)")
            #expect(refused.header("Content-Type") == "text/html; charset=utf-8")
        }
        try await DeviceFlow.wait(seconds: 1)
        #expect(
            try await DeviceFlow.poll(server.port, deviceCode: sealed).error
                == "authorization_pending")
        let approved = try await DeviceFlow.post(
            server.port, cookie: cookie, [("form_token", token)] + approve)
        #expect(approved.status == 200)
        #expect(approved.body.contains("Device connected"))
        #expect(try await server.stop() == 0)
    }

    /// Wrong user codes are limited per client (10 a minute, keyed like every per-client
    /// limit): the 11th try is `429` even with the right code, so guessing stops there;
    /// another client is not affected, and right codes do not count.
    @Test func wrongUserCodesAreLimitedPerClient() async throws {
        let server = try await TokenSwapProcess.serve(
            ["--sandbox"], environment: ["TOKENSWAP_TRUSTED_PROXIES": "127.0.0.1"])
        let (cookie, token) = try await DeviceFlow.formToken(server.port)
        func attempt(_ userCode: String, from client: String) async throws -> Exchange.Answer {
            let body = [
                ("form_token", token), ("user_code", userCode), ("action", "approve"),
            ].map { "\($0.0)=\(Exchange.encode($0.1))" }.joined(separator: "&")
            return try await Exchange.request(
                "POST", "/sandbox/device", port: server.port,
                headers: [
                    ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie),
                    ("X-Forwarded-For", client),
                ], body: body)
        }
        var codes: [String] = []
        for _ in 0..<3 {
            let code = try await DeviceFlow.requestCode(server.port, scope: "tv")
            codes.append(try #require(code.string("user_code")))
        }
        // A right code first: it costs nothing.
        #expect(try await attempt(codes[0], from: "2001:db8:d:1::1").status == 200)
        var statuses: [Int] = []
        for _ in 0..<10 {
            statuses.append(try await attempt("BBBB-BBBB", from: "2001:db8:d:1::2").status)
        }
        #expect(statuses == Array(repeating: 400, count: 10))
        let limited = try await attempt(codes[1], from: "2001:db8:d:1::3")
        #expect(limited.status == 429)
        #expect(limited.header("Retry-After").flatMap { Int($0) }.map { $0 >= 1 } == true)
        #expect(try await attempt(codes[2], from: "198.51.100.20").status == 200)
        #expect(try await server.stop() == 0)
    }

    /// L2P's refresh refusals (HTTP 200 with a status string) are a dead token: 400
    /// `invalid_grant` on `/refresh`, never a 200 or a 5xx.
    @Test(arguments: ["sandbox-refresh-expired", "sandbox-refresh-invalid"])
    func l2pRefreshRefusalsAreInvalidGrant(_ plant: String) async throws {
        let server = try await TokenSwapProcess.serve(
            ["--sandbox"], environment: ["TOKENSWAP_PROVIDERS": "l2p"])
        let swap = try await Exchange.form("/v1/swap", port: server.port, [("code", plant)])
        let sealed = try #require(swap.string("refresh_token"))
        let refresh = try await Exchange.form(
            "/v1/refresh", port: server.port, [("refresh_token", sealed)])
        #expect(refresh.status == 400)
        #expect(refresh.error == "invalid_grant")
        #expect(try await server.stop() == 0)
    }
}
