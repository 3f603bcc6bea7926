import Foundation
import Testing

/// `POST /v1/<name>/introspect` (CONTRACT §8, RFC 7662's answer shape) through the binary,
/// against a stub provider: what the provider receives per style, the normalised answer,
/// `{"active":false}` with nothing else, the per-client limit, and 404 for style `none`.
@Suite(.serialized, .resourceClass(.processes)) struct IntrospectionTests {
    static let introspectPath = "/oauth/introspect"

    static func rfc7662(_ stub: ProviderStub) -> [String: String] {
        [
            "TOKENSWAP_SPOTIFY_INTROSPECTION_STYLE": "rfc7662",
            "TOKENSWAP_SPOTIFY_INTROSPECTION_URL": stub.tokenURL(introspectPath),
        ]
    }

    static func answerJSON(
        _ stub: ProviderStub, _ members: [String: Any], status: Int = 200,
        path: String = introspectPath
    ) async throws {
        let body = String(
            decoding: try JSONSerialization.data(withJSONObject: members), as: UTF8.self)
        try await stub.answer(status: status, body: body, path: path)
    }

    @Test func rfc7662AsksWithClientAuthAndPassesOnRFC7662MembersNormalised() async throws {
        let stub = try await ProviderStub.start()
        let stack = try await StubStack.start(stub: stub, extra: Self.rfc7662(stub))
        let secret = stack.deployment.clientSecret
        let sealed = try await RevocationTests.sealedRefreshToken(stack, raw: "rt-raw-intro")
        try await Self.answerJSON(
            stub,
            [
                "active": true, "scope": "user-read", "client_id": Deployment.clientID,
                "exp": "1900000000", "iat": 1_800_000_000.0, "username": "ada",
                "token": "at-echoed", "extra": ["x": 1], "exp_note": "dropped",
            ])
        let active = try await Exchange.form(
            "/v1/introspect", port: stack.port, [("token", "at-clear-intro")])
        #expect(active.status == 200)
        #expect(active.header("Cache-Control") == "no-store")
        // RFC 7662's members only, strings as strings and times as integers.
        #expect(
            Set(active.json?.keys.map { $0 } ?? [])
                == ["active", "scope", "client_id", "exp", "iat", "username"])
        #expect(active.json?["active"] as? Bool == true)
        #expect(active.string("client_id") == Deployment.clientID)
        #expect(active.string("username") == "ada")
        #expect(active.json?["exp"] as? Int == 1_900_000_000)
        #expect(active.json?["iat"] as? Int == 1_800_000_000)
        #expect(!active.body.contains("at-echoed"))

        // A sealed refresh token is asked about as what it is, never refreshed to find out.
        _ = try await Exchange.form("/v1/spotify/introspect", port: stack.port, [("token", sealed)])

        let received = try await stub.received()
        try #require(received.count == 3)
        for request in received[1...] {
            #expect(request.method == "POST")
            #expect(request.target == Self.introspectPath)
            #expect(
                request.header("Authorization")
                    == UpstreamRequestTests.basic(Deployment.clientID, secret))
            #expect(!request.body.contains(secret))
        }
        #expect(received[1].form == ["token": "at-clear-intro", "token_type_hint": "access_token"])
        #expect(received[2].form == ["token": "rt-raw-intro", "token_type_hint": "refresh_token"])
        #expect(!received.contains { $0.form["grant_type"] == "refresh_token" })
        #expect(
            try await stack.finish(secrets: ["rt-raw-intro", sealed, "at-clear-intro", "at-echoed"])
                == 0)
    }

    /// RFC 7662 §2.2: an inactive token's answer carries nothing else, whatever the
    /// provider added; 4xx about the token is inactive, a failing provider is not.
    @Test func inactiveCarriesNothingElseAndFailuresAreErrors() async throws {
        let stub = try await ProviderStub.start()
        var extra = Self.rfc7662(stub)
        extra["TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS"] = "1"
        let stack = try await StubStack.start(stub: stub, extra: extra)
        try await Self.answerJSON(
            stub, ["active": false, "scope": "user-read", "client_id": "someone", "exp": 1])
        let inactive = try await Exchange.form(
            "/v1/introspect", port: stack.port, [("token", "at-dead")])
        #expect(inactive.status == 200)
        #expect(inactive.body == #"{"active":false}"#)

        let cases: [(status: Int, body: String, mode: String, expected: Int, error: String)] = [
            (500, "oops", "normal", 502, "upstream_error"),
            (200, "not json", "normal", 502, "upstream_error"),
            (200, #"{"scope":"no active member"}"#, "normal", 502, "upstream_error"),
            (401, #"{"error":"invalid_client"}"#, "normal", 502, "upstream_error"),
            (429, "slow down", "normal", 429, "temporarily_unavailable"),
            (200, "{}", "slow", 504, "upstream_timeout"),
        ]
        for failure in cases {
            try await stub.answer(
                status: failure.status, body: failure.body, mode: failure.mode,
                delayMilliseconds: 2500, path: Self.introspectPath)
            let answer = try await Exchange.form(
                "/v1/introspect", port: stack.port, [("token", "at-any")])
            #expect(answer.status == failure.expected, "\(failure): \(answer)")
            #expect(answer.error == failure.error)
        }
        let missing = try await Exchange.form("/v1/introspect", port: stack.port, [("token", "")])
        #expect(missing.status == 400)
        #expect(missing.error == "invalid_request")

        let metrics = try await OperationsTests.scrape(stack.port)
        #expect(
            metrics.contains(
                #"tokenswap_introspections_total{provider="spotify",outcome="inactive"} 1"#))
        #expect(
            metrics.contains(
                #"tokenswap_introspections_total{provider="spotify",outcome="failed"} 6"#))
        #expect(try await stack.finish(secrets: ["at-dead", "at-any"]) == 0)
    }

    /// LinkedIn's preset: `introspectToken` with the credentials in the body, its
    /// `expires_at`/`created_at` as `exp`/`iat`, `status` other than active as inactive.
    @Test func linkedinStyle() async throws {
        let stub = try await ProviderStub.start()
        let deployment = Deployment()
        let keys = Deployment.newKey("L")
        let path = "/oauth/v2/introspectToken"
        let server = try await TokenSwapProcess.serve(environment: [
            "TOKENSWAP_PROVIDERS": "linkedin",
            "TOKENSWAP_LINKEDIN_CLIENT_ID": Deployment.clientID,
            "TOKENSWAP_LINKEDIN_CLIENT_SECRET": deployment.clientSecret,
            "TOKENSWAP_LINKEDIN_REDIRECT_URI": Deployment.redirectURI,
            "TOKENSWAP_LINKEDIN_TOKEN_URL": stub.tokenURL("/oauth/v2/accessToken"),
            "TOKENSWAP_LINKEDIN_INTROSPECTION_URL": stub.tokenURL(path),
            "TOKENSWAP_ENCRYPTION_KEYS": keys,
        ])
        let live: [String: Any] = [
            "active": true, "client_id": Deployment.clientID, "authorized_at": 1_700_000_000,
            "created_at": 1_700_000_000, "status": "active", "expires_at": 2_000_000_000,
            "auth_type": "3L", "scope": "r_liteprofile",
        ]
        try await Self.answerJSON(stub, live, path: path)
        let active = try await Exchange.form(
            "/v1/linkedin/introspect", port: server.port, [("token", "at-li")])
        #expect(active.status == 200)
        #expect(active.json?["active"] as? Bool == true)
        #expect(active.json?["exp"] as? Int == 2_000_000_000)
        #expect(active.json?["iat"] as? Int == 1_700_000_000)
        #expect(active.string("scope") == "r_liteprofile")
        #expect(active.json?["status"] == nil && active.json?["auth_type"] == nil)

        var revoked = live
        revoked["status"] = "revoked"
        var expired = live
        expired["expires_at"] = 1_000_000_000
        for members in [revoked, expired] {
            try await Self.answerJSON(stub, members, path: path)
            let answer = try await Exchange.form(
                "/v1/introspect", port: server.port, [("token", "at-li")])
            #expect(answer.body == #"{"active":false}"#)
        }
        try await Self.answerJSON(stub, ["error": "invalid_token"], status: 400, path: path)
        let invalid = try await Exchange.form(
            "/v1/introspect", port: server.port, [("token", "at-li")])
        #expect(invalid.body == #"{"active":false}"#)

        let received = try await stub.received()
        try #require(received.count == 4)
        for request in received {
            #expect(request.method == "POST")
            #expect(request.target == path)
            #expect(request.header("Authorization") == nil)
            #expect(
                request.form == [
                    "client_id": Deployment.clientID, "client_secret": deployment.clientSecret,
                    "token": "at-li",
                ])
        }
        #expect(try await server.stop() == 0)
        expectNoSecrets(
            in: [server.output, stub.errorOutput],
            [deployment.clientSecret, "at-li"] + Deployment.keyMaterial(keys))
    }

    /// A sealed refresh token with a style that knows only access tokens: never refreshed
    /// to find out; it is asked about as the access token it might be (the same call a
    /// random value gets, CONTRACT §8), and the provider's "not active" is the answer.
    @Test func aSealedRefreshTokenIsNotRefreshedToFindOut() async throws {
        let stub = try await ProviderStub.start()
        let stack = try await StubStack.start(
            stub: stub,
            extra: [
                "TOKENSWAP_SPOTIFY_INTROSPECTION_STYLE": "linkedin",
                "TOKENSWAP_SPOTIFY_INTROSPECTION_URL": stub.tokenURL("/introspectToken"),
            ])
        let sealed = try await RevocationTests.sealedRefreshToken(stack, raw: "rt-raw-li")
        let answer = try await Exchange.form(
            "/v1/introspect", port: stack.port, [("token", sealed)])
        #expect(answer.body == #"{"active":false}"#)
        let received = try await stub.received()
        try #require(received.count == 2)
        #expect(received[1].target == "/introspectToken")
        #expect(received[1].form["token"] == sealed)
        #expect(received[1].form["grant_type"] == nil)
        #expect(try await stack.finish(secrets: ["rt-raw-li", sealed]) == 0)
    }

    /// RFC 7662 §4: introspection is limited per client (token scanning), on its own
    /// budget; style `none` (Spotify) has no introspection endpoint at all.
    @Test func rateLimitedPerClientAndAbsentForStyleNone() async throws {
        let stub = try await ProviderStub.start()
        var extra = Self.rfc7662(stub)
        extra["TOKENSWAP_INTROSPECTION_RATE_LIMIT"] = "2"
        extra["TOKENSWAP_PROVIDERS"] = "spotify,plain"
        extra["TOKENSWAP_PLAIN_PRESET"] = "spotify"
        extra["TOKENSWAP_PLAIN_CLIENT_ID"] = "plain-client"
        extra["TOKENSWAP_PLAIN_CLIENT_SECRET"] = "plain-secret-" + Deployment.random(8)
        extra["TOKENSWAP_PLAIN_REDIRECT_URI"] = Deployment.redirectURI
        let stack = try await StubStack.start(stub: stub, extra: extra)
        try await Self.answerJSON(stub, ["active": false])
        var statuses: [Int] = []
        var last: Exchange.Answer?
        for _ in 0..<3 {
            let answer = try await Exchange.form(
                "/v1/introspect", port: stack.port, [("token", "at-scan")])
            statuses.append(answer.status)
            last = answer
        }
        #expect(statuses == [200, 200, 429])
        #expect(last?.error == "rate_limited")
        #expect(last?.header("Retry-After") != nil)
        #expect(try await stub.received().count == 2)
        // The swap endpoints are not on that budget.
        let swap = try await Exchange.form("/v1/swap", port: stack.port, [("code", "code-scan")])
        #expect(swap.status != 429)

        let none = try await Exchange.form(
            "/v1/plain/introspect", port: stack.port, [("token", "at-scan")])
        #expect(none.status == 404)
        #expect(try await stack.finish(secrets: ["at-scan", "code-scan"]) == 0)
    }
}
