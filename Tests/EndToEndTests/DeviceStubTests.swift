import Foundation
import Testing

/// The device grant (CONTRACT §7) through the real binary against the stub provider
/// process, in each dialect and in each provider's shape: what the provider receives,
/// how every answer is normalised, and what tokenswap answers without calling it.
@Suite(.serialized, .resourceClass(.processes)) struct DeviceStubTests {
    static let devicePath = "/device/code"
    static let tokenPath = "/api/token"

    /// A stub and a tokenswap whose default provider (`spotify`, a generic device
    /// provider here) has the stub's device endpoint, in `dialect`.
    static func start(dialect: String = "rfc8628", extra: [String: String] = [:]) async throws
        -> StubStack
    {
        let stub = try await ProviderStub.start()
        var environment = [
            "TOKENSWAP_SPOTIFY_DIALECT": dialect,
            "TOKENSWAP_SPOTIFY_DEVICE_AUTHORIZATION_URL": stub.tokenURL(devicePath),
        ]
        environment.merge(extra) { _, new in new }
        let deployment = Deployment()
        let keys = Deployment.newKey("A")
        let server = try await TokenSwapProcess.serve(
            environment: deployment.environment(
                tokenURL: stub.tokenURL(tokenPath), keys: keys, extra: environment))
        return StubStack(stub: stub, server: server, deployment: deployment, keys: keys)
    }

    /// The stub's device authorization answer with a fresh device code, in `dialect`.
    @discardableResult
    static func answerDeviceCode(
        _ stack: StubStack, dialect: String = "rfc8628", interval: Int? = 1, expiresIn: Int = 600
    ) async throws -> (deviceCode: String, userCode: String) {
        let deviceCode = "stub-device-" + Deployment.random(16)
        let userCode = "UC" + Deployment.random(6).uppercased()
        var members: [String: Any] = [
            "device_code": deviceCode, "user_code": userCode, "expires_in": expiresIn,
        ]
        if let interval { members["interval"] = interval }
        if dialect == "l2p" {
            members["verification_url"] = "https://oauth.example/manage/"
            members["status"] = "ok"
        } else {
            members["verification_uri"] = "https://provider.example/device"
        }
        try await stack.stub.answerTokens(members, path: devicePath)
        return (deviceCode, userCode)
    }

    /// A sealed device code from tokenswap for a fresh stub device code.
    static func sealedCode(_ stack: StubStack, dialect: String = "rfc8628", interval: Int? = 1)
        async throws -> (sealed: String, raw: String)
    {
        let (raw, _) = try await answerDeviceCode(stack, dialect: dialect, interval: interval)
        let code = try await DeviceFlow.requestCode(stack.port)
        #expect(code.status == 200, "\(code)")
        return (try #require(code.string("device_code")), raw)
    }

    static func tokenRequests(_ stack: StubStack) async throws -> [ProviderStub.Received] {
        try await stack.stub.received().filter { $0.target == tokenPath }
    }

    // MARK: - the whole flow

    @Test(arguments: ["rfc8628", "l2p"])
    func wholeFlowWithTheStub(_ dialect: String) async throws {
        let stack = try await Self.start(dialect: dialect)
        let (raw, userCode) = try await Self.answerDeviceCode(stack, dialect: dialect)
        let code = try await DeviceFlow.requestCode(stack.port, scope: "read write")
        #expect(code.status == 200, "\(code)")
        let sealed = try #require(code.string("device_code"))
        #expect(code.string("user_code") == userCode)
        #expect(code.json?["interval"] as? Int == 1)
        if dialect == "l2p" {
            #expect(code.string("verification_uri") == "https://oauth.example/manage/")
            #expect(
                code.string("verification_uri_complete")
                    == "https://oauth.example/manage/?q=verify&d=\(userCode)")
        } else {
            #expect(code.string("verification_uri") == "https://provider.example/device")
            #expect(code.json?["verification_uri_complete"] == nil)
        }

        let pending =
            dialect == "l2p"
            ? #"{"status":"error: authorization pending."}"#
            : #"{"error":"authorization_pending"}"#
        try await stack.stub.answer(
            status: dialect == "l2p" ? 200 : 400, body: pending, path: Self.tokenPath)
        let first = try await DeviceFlow.poll(stack.port, deviceCode: sealed)
        #expect(first.status == 400)
        #expect(first.error == "authorization_pending")

        var tokens: [String: Any] = [
            "access_token": "stub-at-device", "token_type": "Bearer", "expires_in": "3600",
            "refresh_token": "stub-rt-device",
        ]
        if dialect == "l2p" { tokens["status"] = "ok" }
        try await stack.stub.answerTokens(tokens, path: Self.tokenPath)
        try await DeviceFlow.wait(seconds: 1)
        let done = try await DeviceFlow.poll(stack.port, deviceCode: sealed)
        #expect(done.status == 200, "\(done)")
        #expect(done.json?["expires_in"] as? Int == 3600)
        #expect(done.string("access_token") == "stub-at-device")
        let sealedRefresh = try #require(done.string("refresh_token"))
        #expect(sealedRefresh != "stub-rt-device")

        let refresh = try await Exchange.form(
            "/v1/refresh", port: stack.port, [("refresh_token", sealedRefresh)])
        #expect(refresh.status == 200, "\(refresh)")

        let received = try await stack.stub.received()
        let device = try #require(received.first { $0.target == Self.devicePath })
        // Default _DEVICE_CLIENT_AUTH is none: the id, never the secret.
        #expect(device.form == ["scope": "read write", "client_id": Deployment.clientID])
        #expect(device.header("Authorization") == nil)
        let polls = received.filter {
            $0.target == Self.tokenPath && $0.form["refresh_token"] == nil
        }
        #expect(polls.count == 2)
        for poll in polls {
            if dialect == "l2p" {
                #expect(poll.form["grant_type"] == "device")
                #expect(poll.form["code"] == raw)
            } else {
                #expect(poll.form["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code")
                #expect(poll.form["device_code"] == raw)
            }
            // The provider's other token requests use client_secret_basic here.
            #expect(
                poll.header("Authorization")
                    == UpstreamRequestTests.basic(
                        Deployment.clientID, stack.deployment.clientSecret))
        }
        #expect(received.first { $0.form["refresh_token"] == "stub-rt-device" } != nil)
        #expect(
            try await stack.finish(secrets: [
                raw, sealed, userCode, "stub-at-device", "stub-rt-device", sealedRefresh,
            ]) == 0)
    }

    // MARK: - every §7 error from every provider shape

    /// `(dialect, status, body, error tokenswap answers, interval it answers)`: RFC 8628
    /// as written (400), GitHub (200 with `error`), Auth0 (403, and 429 for slow_down),
    /// L2P (200 with a `status` string, with and without the final period).
    static let shapes: [(String, Int, String, String, Int?)] = [
        ("rfc8628", 400, #"{"error":"authorization_pending"}"#, "authorization_pending", 1),
        ("rfc8628", 400, #"{"error":"slow_down"}"#, "slow_down", 6),
        ("rfc8628", 400, #"{"error":"access_denied"}"#, "access_denied", nil),
        ("rfc8628", 400, #"{"error":"expired_token"}"#, "expired_token", nil),
        (
            "rfc8628", 200,
            #"{"error":"authorization_pending","error_description":"pending","error_uri":"https://docs.github.com"}"#,
            "authorization_pending", 1
        ),
        ("rfc8628", 200, #"{"error":"slow_down","interval":10}"#, "slow_down", 6),
        ("rfc8628", 200, #"{"error":"access_denied"}"#, "access_denied", nil),
        ("rfc8628", 200, #"{"error":"expired_token"}"#, "expired_token", nil),
        (
            "rfc8628", 403,
            #"{"error":"authorization_pending","error_description":"User has yet to authorize device code."}"#,
            "authorization_pending", 1
        ),
        (
            "rfc8628", 429,
            #"{"error":"slow_down","error_description":"You are polling faster than allowed."}"#,
            "slow_down", 6
        ),
        ("rfc8628", 403, #"{"error":"access_denied"}"#, "access_denied", nil),
        ("rfc8628", 403, #"{"error":"expired_token"}"#, "expired_token", nil),
        ("l2p", 200, #"{"status":"error: authorization pending."}"#, "authorization_pending", 1),
        ("l2p", 200, #"{"status":"error: authorization pending"}"#, "authorization_pending", 1),
        ("l2p", 200, #"{"status":"error: slow down"}"#, "slow_down", 6),
        ("l2p", 200, #"{"status":"Error: Slow down."}"#, "slow_down", 6),
        ("l2p", 200, #"{"status":"error","error":"access_denied"}"#, "access_denied", nil),
        ("l2p", 200, #"{"status":"error","error":"expired_token"}"#, "expired_token", nil),
    ]

    @Test(arguments: ["rfc8628", "l2p"])
    func everyPollErrorFromEveryProviderShape(_ dialect: String) async throws {
        // More device codes than the default 10 a minute: 0 turns that limit off.
        let stack = try await Self.start(
            dialect: dialect, extra: ["TOKENSWAP_DEVICE_RATE_LIMIT": "0"])
        for (shapeDialect, status, body, error, interval) in Self.shapes
        where shapeDialect == dialect {
            let (sealed, _) = try await Self.sealedCode(stack, dialect: dialect)
            try await stack.stub.answer(status: status, body: body, path: Self.tokenPath)
            let poll = try await DeviceFlow.poll(stack.port, deviceCode: sealed)
            #expect(poll.status == 400, "\(status) \(body)")
            #expect(poll.error == error, "\(status) \(body)")
            #expect(DeviceFlow.interval(poll) == interval, "\(status) \(body)")
            #expect(poll.string("error_description")?.isEmpty == false)
            #expect(poll.header("Cache-Control") == "no-store")
        }
        #expect(try await stack.finish(secrets: []) == 0)
    }

    /// The other rows of CONTRACT §2 on a poll and on a device request: a provider's
    /// other OAuth error passes through, 5xx / non-JSON is 502, 429 without an OAuth
    /// body keeps its `Retry-After`, a slow provider is 504, an unreachable one 502.
    @Test func upstreamFailuresOnDeviceRequestsAndPolls() async throws {
        let stack = try await Self.start(extra: ["TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS": "1"])
        let port = stack.port
        let (sealed, _) = try await Self.sealedCode(stack)
        let rows: [(Int, String, String, Int, String)] = [
            (400, #"{"error":"invalid_client"}"#, "normal", 400, "invalid_client"),
            (401, #"{"error":"invalid_client"}"#, "normal", 401, "invalid_client"),
            (500, "oops", "normal", 502, "upstream_error"),
            (200, "not json", "normal", 502, "upstream_error"),
            (429, "busy", "normal", 429, "temporarily_unavailable"),
            (200, "{}", "slow", 504, "upstream_timeout"),
        ]
        for (status, body, mode, expected, error) in rows {
            try await stack.stub.answer(
                status: status, headers: status == 429 ? [("Retry-After", "9")] : [], body: body,
                mode: mode, delayMilliseconds: 2000, path: Self.tokenPath)
            try await DeviceFlow.wait(seconds: 1)
            let poll = try await DeviceFlow.poll(port, deviceCode: sealed)
            #expect(poll.status == expected, "poll \(status) \(body)")
            #expect(poll.error == error, "poll \(status) \(body)")
            if status == 429 { #expect(poll.header("Retry-After") == "9") }

            try await stack.stub.answer(
                status: status, body: body, mode: mode, delayMilliseconds: 2000,
                path: Self.devicePath)
            let code = try await DeviceFlow.requestCode(port)
            #expect(code.status == expected, "device \(status) \(body)")
            #expect(code.error == error, "device \(status) \(body)")
        }
        // A device answer without a user code or with a bad expires_in is not one.
        for body in [
            #"{"device_code":"d","verification_uri":"https://x","expires_in":600}"#,
            #"{"device_code":"d","user_code":"u","verification_uri":"https://x","expires_in":"soon"}"#,
            #"{"device_code":"d","user_code":"u","expires_in":600}"#,
        ] {
            try await stack.stub.answer(body: body, path: Self.devicePath)
            let code = try await DeviceFlow.requestCode(port)
            #expect(code.status == 502, "\(body)")
            #expect(code.error == "upstream_error")
        }
        #expect(try await stack.finish(secrets: [sealed]) == 0)
    }

    @Test func unreachableDeviceEndpointIs502() async throws {
        let stack = try await StubStack.start(extra: [
            "TOKENSWAP_SPOTIFY_DEVICE_AUTHORIZATION_URL": "http://127.0.0.1:1/device/code"
        ])
        let code = try await DeviceFlow.requestCode(stack.port)
        #expect(code.status == 502)
        #expect(code.error == "upstream_unreachable")
        #expect(try await stack.finish(secrets: []) == 0)
    }

    // MARK: - answered without calling the provider

    /// A poll sooner than the interval: 400 `slow_down`, interval +5 s, and the stub sees
    /// no poll for it.
    @Test(arguments: ["rfc8628", "l2p"])
    func localSlowDownMakesNoUpstreamCall(_ dialect: String) async throws {
        let stack = try await Self.start(dialect: dialect)
        let (sealed, _) = try await Self.sealedCode(stack, dialect: dialect, interval: 3)
        try await stack.stub.answer(
            status: dialect == "l2p" ? 200 : 400,
            body: dialect == "l2p"
                ? #"{"status":"error: authorization pending."}"#
                : #"{"error":"authorization_pending"}"#,
            path: Self.tokenPath)
        let first = try await DeviceFlow.poll(stack.port, deviceCode: sealed)
        #expect(first.error == "authorization_pending")
        #expect(DeviceFlow.interval(first) == 3)
        for expected in [8, 13] {
            let early = try await DeviceFlow.poll(stack.port, deviceCode: sealed)
            #expect(early.status == 400)
            #expect(early.error == "slow_down")
            #expect(DeviceFlow.interval(early) == expected)
        }
        #expect(try await Self.tokenRequests(stack).count == 1)
        #expect(try await stack.finish(secrets: [sealed]) == 0)
    }

    /// The interval defaults to 5 s when the provider sends none (RFC 8628 §3.2).
    @Test func intervalDefaultsToFive() async throws {
        let stack = try await Self.start()
        try await Self.answerDeviceCode(stack, interval: nil)
        let code = try await DeviceFlow.requestCode(stack.port)
        #expect(code.json?["interval"] as? Int == 5)
        #expect(try await stack.finish(secrets: []) == 0)
    }

    /// A sealed device code past its `expires_in`: 400 `expired_token`, no upstream call.
    @Test(arguments: ["rfc8628", "l2p"])
    func localExpiredTokenMakesNoUpstreamCall(_ dialect: String) async throws {
        let stack = try await Self.start(dialect: dialect)
        try await Self.answerDeviceCode(stack, dialect: dialect, expiresIn: 1)
        let code = try await DeviceFlow.requestCode(stack.port)
        let sealed = try #require(code.string("device_code"))
        // Time itself is what is tested: the sealed code's 1 s (whole seconds of the wall
        // clock) runs out.
        try await Task.sleep(for: .milliseconds(2100))
        let poll = try await DeviceFlow.poll(stack.port, deviceCode: sealed)
        #expect(poll.status == 400)
        #expect(poll.error == "expired_token")
        #expect(DeviceFlow.interval(poll) == nil)
        #expect(try await Self.tokenRequests(stack).isEmpty)
        #expect(try await stack.finish(secrets: [sealed]) == 0)
    }

    /// Sealed refresh token as a device code and sealed device code as a refresh token:
    /// both `invalid_grant`, and the stub is not called for either.
    @Test(arguments: ["rfc8628", "l2p"])
    func deviceCodeAndRefreshTokenConfusionRefusedBothWays(_ dialect: String) async throws {
        let stack = try await Self.start(dialect: dialect)
        let (sealedDevice, _) = try await Self.sealedCode(stack, dialect: dialect)
        try await stack.stub.answerTokens(
            ["access_token": "at-x", "expires_in": 60, "refresh_token": "rt-x"],
            path: Self.tokenPath)
        let swap = try await Exchange.form("/v1/swap", port: stack.port, [("code", "c-1")])
        let sealedRefresh = try #require(swap.string("refresh_token"))
        let before = try await stack.stub.received().count

        let asDevice = try await DeviceFlow.poll(stack.port, deviceCode: sealedRefresh)
        #expect(asDevice.status == 400)
        #expect(asDevice.error == "invalid_grant")
        let asRefresh = try await Exchange.form(
            "/v1/refresh", port: stack.port, [("refresh_token", sealedDevice)])
        #expect(asRefresh.status == 400)
        #expect(asRefresh.error == "invalid_grant")
        #expect(try await stack.stub.received().count == before)
        #expect(try await stack.finish(secrets: [sealedDevice, sealedRefresh, "rt-x"]) == 0)
    }

    /// `_DEVICE_SCOPES`: a scope outside it is 400 `invalid_scope` and never sent.
    @Test func scopeAllowList() async throws {
        let stack = try await Self.start(extra: ["TOKENSWAP_SPOTIFY_DEVICE_SCOPES": "read,write"])
        try await Self.answerDeviceCode(stack)
        let refused = try await DeviceFlow.requestCode(stack.port, scope: "read admin")
        #expect(refused.status == 400)
        #expect(refused.error == "invalid_scope")
        #expect(try await stack.stub.received().isEmpty)
        let allowed = try await DeviceFlow.requestCode(stack.port, scope: "write read")
        #expect(allowed.status == 200)
        let noScope = try await DeviceFlow.requestCode(stack.port)
        #expect(noScope.status == 200)
        #expect(try await stack.stub.received().count == 2)
        #expect(try await stack.finish(secrets: []) == 0)
    }

    // MARK: - client authentication per setting

    /// `(_DEVICE_CLIENT_AUTH, _AUTH)`: what the device request and the poll carry. The
    /// secret is never in a URL, and never sent where the setting says none. The device
    /// request names the client in its body once whatever its authentication (§7:
    /// oauthlib's servers refuse it otherwise); the poll only where `_AUTH` puts it.
    @Test(arguments: [
        ("client_secret_basic", "none"), ("client_secret_post", "client_secret_basic"),
        ("none", "client_secret_post"),
    ])
    func clientAuthenticationPerSetting(_ setting: (String, String)) async throws {
        let (deviceAuth, auth) = setting
        let stack = try await Self.start(extra: [
            "TOKENSWAP_SPOTIFY_DEVICE_CLIENT_AUTH": deviceAuth, "TOKENSWAP_SPOTIFY_AUTH": auth,
        ])
        let secret = stack.deployment.clientSecret
        let (sealed, _) = try await Self.sealedCode(stack)
        try await stack.stub.answer(
            status: 400, body: #"{"error":"authorization_pending"}"#, path: Self.tokenPath)
        _ = try await DeviceFlow.poll(stack.port, deviceCode: sealed)
        let received = try await stack.stub.received()
        try #require(received.count == 2)
        for (request, method) in zip(received, [deviceAuth, auth]) {
            #expect(!request.target.contains(secret))
            #expect(!request.target.contains("client_id"))
            let namesClient = request.target == Self.devicePath || method != "client_secret_basic"
            #expect(request.form["client_id"] == (namesClient ? Deployment.clientID : nil))
            #expect(
                request.body.components(separatedBy: "client_id=").count == (namesClient ? 2 : 1))
            switch method {
            case "client_secret_basic":
                #expect(
                    request.header("Authorization")
                        == UpstreamRequestTests.basic(Deployment.clientID, secret))
                #expect(!request.body.contains(secret))
            case "client_secret_post":
                #expect(request.header("Authorization") == nil)
                #expect(request.form["client_secret"] == secret)
            default:
                #expect(request.header("Authorization") == nil)
                #expect(request.form["client_secret"] == nil)
                #expect(!request.body.contains(secret))
            }
        }
        #expect(try await stack.finish(secrets: [sealed]) == 0)
    }

    // MARK: - L2P refresh

    /// L2P refuses a refresh with HTTP 200 and a status string: `/v1/refresh` answers 400
    /// `invalid_grant` for both (a dead token is always a 4xx).
    @Test(arguments: [
        #"{"status":"authorization invalid."}"#, #"{"status":"error: refresh token invalid."}"#,
    ])
    func l2pRefreshStatusesAreInvalidGrant(_ body: String) async throws {
        let stack = try await Self.start(dialect: "l2p")
        try await stack.stub.answerTokens([
            "access_token": "at-l2p", "expires_in": 3600, "refresh_token": "rt-l2p",
            "status": "ok",
        ])
        let swap = try await Exchange.form("/v1/swap", port: stack.port, [("code", "c-l2p")])
        let sealed = try #require(swap.string("refresh_token"))
        try await stack.stub.answer(body: body)
        let refresh = try await Exchange.form(
            "/v1/refresh", port: stack.port, [("refresh_token", sealed)])
        #expect(refresh.status == 400)
        #expect(refresh.error == "invalid_grant")
        #expect(try await stack.finish(secrets: [sealed, "rt-l2p", "at-l2p"]) == 0)
    }
}
