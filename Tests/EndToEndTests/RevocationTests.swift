import Foundation
import Testing

/// `POST /v1/<name>/revoke` (CONTRACT §8, RFC 7009) through the binary, against a stub
/// provider: what the provider receives per style, and every answer: `200 {}` whether the
/// provider revoked the token, calls it invalid, or it did not open (no oracle); `503` with
/// `Retry-After` when the provider failed; `broker` without a provider call.
@Suite(.serialized, .resourceClass(.processes)) struct RevocationTests {
    static let revokePath = "/oauth/revoke"

    static func rfc7009(_ stub: ProviderStub, timeout: String = "5") -> [String: String] {
        [
            "TOKENSWAP_SPOTIFY_REVOCATION_STYLE": "rfc7009",
            "TOKENSWAP_SPOTIFY_REVOCATION_URL": stub.tokenURL(revokePath),
            "TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS": timeout,
        ]
    }

    /// A swap whose provider issued `raw` as refresh token: the sealed one the app holds.
    static func sealedRefreshToken(_ stack: StubStack, raw: String, path: String = "/v1/swap")
        async throws -> String
    {
        try await stack.stub.answerTokens([
            "access_token": "at-for-" + raw, "token_type": "Bearer", "expires_in": 3600,
            "refresh_token": raw,
        ])
        let swap = try await Exchange.form(path, port: stack.port, [("code", "code-" + raw)])
        return try #require(swap.string("refresh_token"))
    }

    /// The revocation answer the client sees, checked to be RFC 7009's `200 {}`.
    static func expectRevoked(
        _ answer: Exchange.Answer, _ disposition: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(answer.status == 200, "\(answer)", sourceLocation: sourceLocation)
        #expect(answer.body == "{}", sourceLocation: sourceLocation)
        #expect(
            answer.header("Tokenswap-Revocation") == disposition, sourceLocation: sourceLocation)
        #expect(answer.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
    }

    @Test func rfc7009RevokesASealedTokenAsRefreshTokenAndAnythingElseAsAccessToken()
        async throws
    {
        let stub = try await ProviderStub.start()
        let stack = try await StubStack.start(stub: stub, extra: Self.rfc7009(stub))
        let secret = stack.deployment.clientSecret
        let sealed = try await Self.sealedRefreshToken(stack, raw: "rt-raw-revoke")
        try await stub.answer(status: 200, body: "", path: Self.revokePath)

        // The hint is the client's guess; what opens is a refresh token whatever it says.
        Self.expectRevoked(
            try await Exchange.form(
                "/v1/revoke", port: stack.port,
                [("token", sealed), ("token_type_hint", "access_token")]), "forwarded")
        Self.expectRevoked(
            try await Exchange.form(
                "/v1/spotify/revoke", port: stack.port, [("token", "at-clear-1")]), "forwarded")

        let received = try await stub.received()
        try #require(received.count == 3)
        for request in received[1...] {
            #expect(request.method == "POST")
            #expect(request.target == Self.revokePath)
            #expect(
                request.header("Authorization")
                    == UpstreamRequestTests.basic(Deployment.clientID, secret))
            #expect(!request.body.contains(secret))
            #expect(!request.target.contains(secret))
        }
        #expect(received[1].form == ["token": "rt-raw-revoke", "token_type_hint": "refresh_token"])
        #expect(received[2].form == ["token": "at-clear-1", "token_type_hint": "access_token"])

        let metrics = try await OperationsTests.scrape(stack.port)
        #expect(
            metrics.contains(
                #"tokenswap_revocations_total{provider="spotify",outcome="revoked"} 2"#))
        #expect(
            try await stack.finish(secrets: [
                "rt-raw-revoke", sealed, "at-clear-1", "code-rt-raw-revoke",
            ])
                == 0)
    }

    /// RFC 7009 §2.2: an invalid token is answered as a revoked one, so the endpoint tells
    /// no one which tokens exist; a tampered sealed token is just an unknown access token.
    @Test func invalidAndUnopenableTokensAreAnsweredLikeRevokedOnes() async throws {
        let stub = try await ProviderStub.start()
        let stack = try await StubStack.start(stub: stub, extra: Self.rfc7009(stub))
        let sealed = try await Self.sealedRefreshToken(stack, raw: "rt-raw-oracle")
        try await stub.answer(status: 200, body: "", path: Self.revokePath)
        let revoked = try await Exchange.form("/v1/revoke", port: stack.port, [("token", sealed)])

        try await stub.answer(
            status: 400, body: #"{"error":"invalid_token"}"#, path: Self.revokePath)
        let invalid = try await Exchange.form("/v1/revoke", port: stack.port, [("token", sealed)])
        var tampered = Array(sealed)
        tampered[tampered.count / 2] = tampered[tampered.count / 2] == "A" ? "B" : "A"
        let unopenable = try await Exchange.form(
            "/v1/revoke", port: stack.port, [("token", String(tampered))])
        for answer in [revoked, invalid, unopenable] {
            Self.expectRevoked(answer, "forwarded")
            #expect(
                answer.headers.filter { !["date", "x-request-id"].contains($0.name.lowercased()) }
                    .map { "\($0.name): \($0.value)" }
                    == revoked.headers.filter {
                        !["date", "x-request-id"].contains($0.name.lowercased())
                    }.map { "\($0.name): \($0.value)" })
        }
        let received = try await stub.received()
        try #require(received.count == 4)
        #expect(received[3].form == ["token": String(tampered), "token_type_hint": "access_token"])

        let metrics = try await OperationsTests.scrape(stack.port)
        #expect(
            metrics.contains(
                #"tokenswap_revocations_total{provider="spotify",outcome="invalid"} 2"#))
        #expect(try await stack.finish(secrets: ["rt-raw-oracle", sealed]) == 0)
    }

    /// RFC 7009 §2.2.1: when the provider could not take the revocation the client keeps
    /// its token and retries: 503 with Retry-After (the provider's when it gave one).
    @Test func aFailingProviderIs503WithRetryAfter() async throws {
        let stub = try await ProviderStub.start()
        let stack = try await StubStack.start(stub: stub, extra: Self.rfc7009(stub, timeout: "1"))
        let cases: [(status: Int, headers: [(String, String)], mode: String, retryAfter: String)] =
            [
                (500, [], "normal", "30"),
                (429, [("Retry-After", "12")], "normal", "12"),
                (401, [], "normal", "30"),
                (200, [], "slow", "30"),
                (200, [], "garbage", "30"),
            ]
        for failure in cases {
            try await stub.answer(
                status: failure.status, headers: failure.headers, body: "{}", mode: failure.mode,
                delayMilliseconds: 2500, path: Self.revokePath)
            let answer = try await Exchange.form(
                "/v1/revoke", port: stack.port, [("token", "at-clear-503")])
            #expect(answer.status == 503, "\(failure.status) \(failure.mode): \(answer)")
            #expect(answer.error == "temporarily_unavailable")
            #expect(answer.header("Retry-After") == failure.retryAfter)
            #expect(answer.header("Tokenswap-Revocation") == nil)
        }
        let metrics = try await OperationsTests.scrape(stack.port)
        #expect(
            metrics.contains(#"tokenswap_revocations_total{provider="spotify",outcome="failed"} 5"#)
        )
        #expect(try await stack.finish(secrets: ["at-clear-503"]) == 0)
    }

    /// Spotify has no revocation API: 200 with `Tokenswap-Revocation: broker` (tokenswap
    /// revokes the grant itself, CONTRACT §14), and the provider is not called. A request
    /// without a token is still refused.
    @Test func styleNoneAnswersBrokerWithoutCallingTheProvider() async throws {
        let stack = try await StubStack.start()
        let sealed = try await Self.sealedRefreshToken(stack, raw: "rt-raw-none")
        for token in [sealed, "at-clear-none"] {
            Self.expectRevoked(
                try await Exchange.form("/v1/revoke", port: stack.port, [("token", token)]),
                "broker")
        }
        for body in ["", "token=", "token=%28null%29", "token_type_hint=refresh_token"] {
            let missing = try await Exchange.request(
                "POST", "/v1/spotify/revoke", port: stack.port,
                headers: [("Content-Type", "application/x-www-form-urlencoded")], body: body)
            #expect(missing.status == 400)
            #expect(missing.error == "invalid_request")
        }
        let wrongType = try await Exchange.request(
            "POST", "/v1/revoke", port: stack.port, headers: [("Content-Type", "text/plain")],
            body: "token=x")
        #expect(wrongType.status == 415)
        #expect(try await stack.stub.received().count == 1)  // the swap only
        #expect(try await stack.finish(secrets: ["rt-raw-none", sealed, "at-clear-none"]) == 0)
    }

    /// CONTRACT §9: a token an app kept from the old swap service is revoked upstream as the
    /// refresh token it holds (before, revoke never tried the legacy formats and sent it
    /// as an unknown access token); a value no format opens still goes as an access token.
    @Test func aLegacyTokenIsRevokedUpstreamAsARefreshToken() async throws {
        let formats = ["spotifyapiserver-gcm", "ruby-encrypted-strings"]
        let files = try LegacyMigrationTests.SecretFiles(formats: formats) { _ in
            "old-" + Deployment.random(20)
        }
        defer { files.remove() }
        let stub = try await ProviderStub.start()
        var extra = Self.rfc7009(stub)
        extra["TOKENSWAP_SPOTIFY_LEGACY"] = files.setting(formats)
        let stack = try await StubStack.start(stub: stub, extra: extra)
        try await stub.answer(status: 200, body: "", path: Self.revokePath)
        var raws: [String] = []
        var legacyTokens: [String] = []
        for format in formats {
            let raw = "AQ" + Deployment.random(60) + "-_" + Deployment.random(40)
            let token = try await LegacyMigrationTests.legacyToken(
                format, secret: try #require(files.secrets[format]), plaintext: raw)
            raws.append(raw)
            legacyTokens.append(token)
            Self.expectRevoked(
                try await Exchange.form("/v1/revoke", port: stack.port, [("token", token)]),
                "forwarded")
        }
        let unknown = "AQ" + Deployment.random(100)
        Self.expectRevoked(
            try await Exchange.form("/v1/revoke", port: stack.port, [("token", unknown)]),
            "forwarded")
        let received = try await stub.received()
        try #require(received.count == 3)
        for (request, raw) in zip(received, raws) {
            #expect(request.target == Self.revokePath)
            #expect(request.form == ["token": raw, "token_type_hint": "refresh_token"])
        }
        #expect(received[2].form == ["token": unknown, "token_type_hint": "access_token"])
        #expect(try await stack.finish(secrets: raws + legacyTokens + [unknown]) == 0)
    }

    /// A provider with `client_secret_post`: the credentials in the revocation's form body.
    @Test func clientSecretPostSendsTheCredentialsInTheBody() async throws {
        let stub = try await ProviderStub.start()
        var extra = Self.rfc7009(stub)
        extra["TOKENSWAP_SPOTIFY_AUTH"] = "client_secret_post"
        let stack = try await StubStack.start(stub: stub, extra: extra)
        try await stub.answer(status: 200, body: "", path: Self.revokePath)
        Self.expectRevoked(
            try await Exchange.form("/v1/revoke", port: stack.port, [("token", "at-post")]),
            "forwarded")
        let received = try #require(try await stub.received().first)
        #expect(received.header("Authorization") == nil)
        #expect(
            received.form == [
                "token": "at-post", "token_type_hint": "access_token",
                "client_id": Deployment.clientID, "client_secret": stack.deployment.clientSecret,
            ])
        #expect(!received.target.contains(stack.deployment.clientSecret))
        #expect(try await stack.finish(secrets: ["at-post"]) == 0)
    }
}
