import Foundation
import Testing

/// What the provider receives from tokenswap, read from a separate stub provider process
/// that records every request.
// Serialized: each test starts processes; the whole test run shares a 2-core machine with
// timing-sensitive suites, so the cases of a table go one after another, not all at once.
@Suite(.serialized, .resourceClass(.processes)) struct UpstreamRequestTests {
    static func basic(_ id: String, _ secret: String) -> String {
        "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()
    }

    @Test func swapSendsTheSecretInBasicAuthTheConfiguredRedirectAndTheVerifier() async throws {
        let stack = try await StubStack.start()
        let secret = stack.deployment.clientSecret
        try await stack.stub.answerTokens([
            "access_token": "at-swap-1", "token_type": "Bearer", "scope": "user-read",
            "expires_in": "3600", "refresh_token": "rt-raw-1", "id_token": "idt-1",
            "custom": ["nested": true],
        ])
        // A redirect_uri that is not allowed is replaced by the configured one.
        let swap = try await Exchange.form(
            "/v1/swap", port: stack.port,
            [
                ("code", "code-e2e-1"), ("code_verifier", "verifier-e2e-1"),
                ("redirect_uri", "evil://steal"), ("client_id", "ignored"),
                ("grant_type", "ignored"),
            ])
        #expect(swap.status == 200)
        #expect(swap.header("Cache-Control") == "no-store")
        #expect(swap.header("Pragma") == "no-cache")
        #expect(swap.header("Content-Type") == "application/json")
        // expires_in as a string upstream is an integer here; other fields pass through.
        #expect(swap.json?["expires_in"] as? Int == 3600)
        #expect(swap.body.contains(#""expires_in":3600"#))
        #expect(swap.string("access_token") == "at-swap-1")
        #expect(swap.string("id_token") == "idt-1")
        #expect(swap.string("scope") == "user-read")
        #expect(swap.string("token_type") == "Bearer")
        #expect((swap.json?["custom"] as? [String: Any])?["nested"] as? Bool == true)
        let sealed = try #require(swap.string("refresh_token"))
        #expect(sealed != "rt-raw-1")
        #expect(!sealed.contains("rt-raw-1"))

        // An allowed redirect_uri is used as sent.
        let allowed = try await Exchange.form(
            "/v1/swap", port: stack.port,
            [("code", "code-e2e-2"), ("redirect_uri", Deployment.allowedRedirectURI)])
        #expect(allowed.status == 200)

        let received = try await stack.stub.received()
        try #require(received.count == 2)
        let first = received[0]
        #expect(first.method == "POST")
        #expect(first.target == "/api/token")
        #expect(first.header("Authorization") == Self.basic(Deployment.clientID, secret))
        #expect(
            first.header("Content-Type")?.hasPrefix("application/x-www-form-urlencoded") == true)
        #expect(
            first.form == [
                "grant_type": "authorization_code", "code": "code-e2e-1",
                "redirect_uri": Deployment.redirectURI, "code_verifier": "verifier-e2e-1",
            ])
        #expect(!first.body.contains(secret))
        #expect(received[1].form["redirect_uri"] == Deployment.allowedRedirectURI)
        #expect(received[1].form["code_verifier"] == nil)
        for request in received { #expect(!request.target.contains(secret)) }

        #expect(
            try await stack.finish(secrets: [
                "code-e2e-1", "code-e2e-2", "verifier-e2e-1", "at-swap-1", "rt-raw-1", sealed,
            ]) == 0)
    }

    @Test func refreshSendsTheRawTokenAndAnswersWithTheRightRefreshToken() async throws {
        // Off: the replay window (CONTRACT §12, RefreshReplayTests) would answer this
        // test's repeats of one token without the provider calls it checks.
        let stack = try await StubStack.start(extra: ["TOKENSWAP_REFRESH_REPLAY_SECONDS": "0"])
        try await stack.stub.answerTokens([
            "access_token": "at-1", "token_type": "Bearer", "expires_in": 3600,
            "refresh_token": "rt-raw-original",
        ])
        let swap = try await Exchange.form("/v1/swap", port: stack.port, [("code", "code-r-1")])
        let sealed = try #require(swap.string("refresh_token"))

        // The provider does not rotate: the client's sealed token comes back byte for byte.
        try await stack.stub.answerTokens([
            "access_token": "at-2", "token_type": "Bearer", "expires_in": 3600,
        ])
        let same = try await Exchange.form(
            "/v1/refresh", port: stack.port, [("refresh_token", sealed)])
        #expect(same.status == 200)
        #expect(same.string("refresh_token") == sealed)
        #expect(same.string("access_token") == "at-2")

        // The provider rotates: a new sealed token, which opens to the rotated raw one.
        try await stack.stub.answerTokens([
            "access_token": "at-3", "token_type": "Bearer", "expires_in": 3600,
            "refresh_token": "rt-raw-rotated",
        ])
        let rotated = try await Exchange.form(
            "/v1/refresh", port: stack.port, [("refresh_token", sealed)])
        #expect(rotated.status == 200)
        let resealed = try #require(rotated.string("refresh_token"))
        #expect(resealed != sealed)
        _ = try await Exchange.form("/v1/refresh", port: stack.port, [("refresh_token", resealed)])

        // Tampered (one character changed) and truncated: invalid_grant, provider not called.
        let before = try await stack.stub.received().count
        var tampered = Array(sealed)
        tampered[tampered.count / 2] = tampered[tampered.count / 2] == "A" ? "B" : "A"
        for bad in [String(tampered), String(sealed.dropLast(4)), "not-a-sealed-token"] {
            let answer = try await Exchange.form(
                "/v1/refresh", port: stack.port, [("refresh_token", bad)])
            #expect(answer.status == 400)
            #expect(answer.error == "invalid_grant")
            #expect(answer.header("Cache-Control") == "no-store")
        }
        #expect(try await stack.stub.received().count == before)

        let received = try await stack.stub.received()
        try #require(received.count == 4)
        for index in 1...2 {
            #expect(
                received[index].form == [
                    "grant_type": "refresh_token", "refresh_token": "rt-raw-original",
                ])
        }
        #expect(received[3].form["refresh_token"] == "rt-raw-rotated")
        #expect(
            try await stack.finish(secrets: [
                "code-r-1", "rt-raw-original", "rt-raw-rotated", sealed, resealed, "at-1", "at-2",
                "at-3",
            ]) == 0)
    }

    /// LinkedIn's preset and a generic provider told so: client_secret_post, the
    /// credentials in the form body, no Authorization header, nothing in the URL.
    @Test(arguments: [
        ["TOKENSWAP_PROVIDERS": "linkedin"],
        ["TOKENSWAP_PROVIDERS": "acme", "TOKENSWAP_ACME_AUTH": "client_secret_post"],
    ])
    func clientSecretPost(_ providers: [String: String]) async throws {
        let name = providers["TOKENSWAP_PROVIDERS"] ?? ""
        let stub = try await ProviderStub.start()
        let deployment = Deployment()
        let prefix = "TOKENSWAP_" + name.uppercased() + "_"
        let keys = Deployment.newKey("k1")
        var environment = providers
        environment[prefix + "CLIENT_ID"] = Deployment.clientID
        environment[prefix + "CLIENT_SECRET"] = deployment.clientSecret
        environment[prefix + "REDIRECT_URI"] = Deployment.redirectURI
        environment[prefix + "TOKEN_URL"] = stub.tokenURL("/oauth/v2/accessToken")
        environment["TOKENSWAP_ENCRYPTION_KEYS"] = keys
        let server = try await TokenSwapProcess.serve(environment: environment)
        for path in ["/v1/swap", "/v1/\(name)/swap"] {
            let answer = try await Exchange.form(path, port: server.port, [("code", "code-post")])
            #expect(answer.status == 200)
        }
        let received = try await stub.received()
        try #require(received.count == 2)
        for request in received {
            #expect(request.target == "/oauth/v2/accessToken")
            #expect(request.header("Authorization") == nil)
            #expect(
                request.form == [
                    "grant_type": "authorization_code", "code": "code-post",
                    "redirect_uri": Deployment.redirectURI, "client_id": Deployment.clientID,
                    "client_secret": deployment.clientSecret,
                ])
        }
        #expect(try await server.stop() == 0)
        expectNoSecrets(
            in: [server.output, stub.errorOutput],
            [deployment.clientSecret, "code-post", "stub-refresh"] + Deployment.keyMaterial(keys))
    }
}
