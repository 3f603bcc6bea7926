import Foundation
import Testing

/// Issue 18 items 1 and 2 through the real binary (CONTRACT §9, §15): the attacks an
/// unauthenticated legacy format (`node-create-cipher-ctr`, one fixed keystream) invites,
/// with tokens made by `openssl enc` (Fixtures/legacy_token.py) under the configured secret.
@Suite(.serialized, .resourceClass(.processes)) struct LegacyProbingTests {
    static let format = "node-create-cipher-ctr"

    /// A stub and a tokenswap whose default provider (generic, so a JSON plaintext passes
    /// the shape check) has a device endpoint and the CTR decoder.
    static func start(extra: [String: String] = [:]) async throws -> (
        stack: StubStack, files: LegacyMigrationTests.SecretFiles
    ) {
        let files = try LegacyMigrationTests.SecretFiles(formats: [format]) { _ in
            "old-" + Deployment.random(20)
        }
        let stub = try await ProviderStub.start()
        let deployment = Deployment()
        let keys = Deployment.newKey("A")
        var environment = [
            "TOKENSWAP_SPOTIFY_PRESET": "generic", "TOKENSWAP_SPOTIFY_AUTH": "client_secret_basic",
            "TOKENSWAP_SPOTIFY_DEVICE_AUTHORIZATION_URL": stub.tokenURL("/device/code"),
            "TOKENSWAP_SPOTIFY_LEGACY": files.setting([format]),
        ]
        environment.merge(extra) { _, new in new }
        let server = try await TokenSwapProcess.serve(
            environment: deployment.environment(
                tokenURL: stub.tokenURL(), keys: keys, extra: environment))
        return (StubStack(stub: stub, server: server, deployment: deployment, keys: keys), files)
    }

    static func secret(_ files: LegacyMigrationTests.SecretFiles) throws -> String {
        try #require(files.secrets[format])
    }

    /// Issue 18 item 1: the forged envelope was opened by the legacy refresh-token decoder
    /// and `expiresAt - now` trapped on Int.min (SIGILL).
    @Test func aForgedCTREnvelopeAsADeviceCodeIsInvalidGrantAndTheProcessLives() async throws {
        let (stack, files) = try await Self.start()
        defer { files.remove() }
        let forged = try await LegacyMigrationTests.legacyToken(
            Self.format, secret: try Self.secret(files),
            plaintext: #"{"d":"x","e":-9223372036854775808,"i":9223372036854775807}"#)
        let sane = try await LegacyMigrationTests.legacyToken(
            Self.format, secret: try Self.secret(files),
            plaintext: #"{"d":"attacker-code","e":4102444800,"i":5}"#)
        for token in [forged, sane, forged] {
            let poll = try await DeviceFlow.poll(stack.port, deviceCode: token)
            #expect(poll.status == 400, "\(poll)")
            #expect(poll.error == "invalid_grant")
            // The token endpoint's device_code grant (CONTRACT §8) polls the same way.
            let grant = try await Exchange.form(
                "/v1/token", port: stack.port,
                [
                    ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                    ("device_code", token),
                ])
            #expect(grant.status == 400, "\(grant)")
            #expect(grant.error == "invalid_grant")
        }
        let health = try await Exchange.request("GET", "/healthz", port: stack.port)
        #expect(health.status == 200)
        // The provider was never polled with the attacker's device code.
        #expect(try await stack.stub.received().isEmpty)
        #expect(try await stack.server.stop() == 0)
    }

    /// Issue 18 item 2: the provider's body for a plaintext that passed the shape check,
    /// tokenswap's own for one that did not, told the keystream byte by byte. Now every
    /// failure is one answer, and failures are limited per client.
    @Test func everyLegacyFailureIsOneAnswerAndFailuresAreLimited() async throws {
        let (stack, files) = try await Self.start(extra: ["TOKENSWAP_LEGACY_FAILURE_LIMIT": "4"])
        defer { files.remove() }
        let secret = try Self.secret(files)
        // A native token first, while the stub still answers tokens.
        try await stack.stub.answerTokens([
            "access_token": "at-native", "token_type": "Bearer", "expires_in": 3600,
            "refresh_token": "rt-native-" + Deployment.random(20),
        ])
        let swap = try await Exchange.form("/v1/swap", port: stack.port, [("code", "c-1")])
        let native = try #require(swap.string("refresh_token"))
        try await stack.stub.answer(
            status: 400, body: #"{"error":"invalid_grant","error_description":"revoked upstream"}"#)

        // Opens and is refused upstream; opens nowhere (wrong secret, not hex, damaged).
        let opens = try await LegacyMigrationTests.legacyToken(
            Self.format, secret: secret, plaintext: "legacy-refresh-" + Deployment.random(20))
        let wrongSecret = try await LegacyMigrationTests.legacyToken(
            Self.format, secret: secret + "x", plaintext: "legacy-refresh-" + Deployment.random(20))
        var answers: [Exchange.Answer] = []
        for token in [opens, wrongSecret, "zz-not-hex", String(opens.dropLast())] {
            answers.append(
                try await Exchange.form("/v1/refresh", port: stack.port, [("refresh_token", token)])
            )
        }
        #expect(try await stack.stub.received().count == 2)  // the swap, and `opens`
        for answer in answers {
            #expect(answer.status == 400)
            #expect(answer.error == "invalid_grant")
            #expect(answer.body == answers[0].body, "\(answer)")
        }
        #expect(!answers[0].body.contains("revoked upstream"))

        // Four failures spent the allowance: even the token that opens is now 429,
        // without a provider call.
        let limited = try await Exchange.form(
            "/v1/refresh", port: stack.port, [("refresh_token", opens)])
        #expect(limited.status == 429)
        #expect(limited.error == "rate_limited")
        #expect(Int(limited.header("Retry-After") ?? "") ?? 0 >= 1)
        #expect(try await stack.stub.received().count == 2)
        // A natively sealed token is never affected (the provider refuses it verbatim).
        let nativeAnswer = try await Exchange.form(
            "/v1/refresh", port: stack.port, [("refresh_token", native)])
        #expect(nativeAnswer.status == 400)
        #expect(nativeAnswer.body.contains("revoked upstream"))

        let metrics = try await OperationsTests.scrape(stack.port)
        #expect(!metrics.contains("tokenswap_legacy_tokens_opened_total{"))
        #expect(try await stack.server.stop() == 0)
        expectNoSecrets(
            in: [stack.server.output, stack.stub.errorOutput],
            [secret, stack.deployment.clientSecret, opens, wrongSecret, native])
    }

    /// A legacy token is counted once its refresh answered 200, not when a decoder opened
    /// it; and a refresh that succeeded gives the failure allowance back.
    @Test func refreshedLegacyTokensAreCountedAndDoNotSpendTheAllowance() async throws {
        // Replay off: within the window (CONTRACT §12) the refusal below would be kept
        // as the token's answer, and this test refreshes the same token after it.
        let (stack, files) = try await Self.start(extra: [
            "TOKENSWAP_LEGACY_FAILURE_LIMIT": "2", "TOKENSWAP_REFRESH_REPLAY_SECONDS": "0",
        ])
        defer { files.remove() }
        let token = try await LegacyMigrationTests.legacyToken(
            Self.format, secret: try Self.secret(files),
            plaintext: "legacy-refresh-" + Deployment.random(20))
        try await stack.stub.answer(status: 400, body: #"{"error":"invalid_grant"}"#)
        let refused = try await Exchange.form(
            "/v1/refresh", port: stack.port, [("refresh_token", token)])
        #expect(refused.status == 400)
        try await stack.stub.answerTokens([
            "access_token": "at-legacy", "token_type": "Bearer", "expires_in": 3600,
        ])
        for _ in 0..<3 {
            let answer = try await Exchange.form(
                "/v1/refresh", port: stack.port, [("refresh_token", token)])
            #expect(answer.status == 200, "\(answer)")
        }
        // One failure spent of two: one more is answered, the next is limited.
        for status in [400, 429] {
            let answer = try await Exchange.form(
                "/v1/refresh", port: stack.port, [("refresh_token", "zz-not-hex")])
            #expect(answer.status == status, "\(answer)")
        }
        let metrics = try await OperationsTests.scrape(stack.port)
        #expect(
            metrics.contains(
                #"tokenswap_legacy_tokens_opened_total{provider="spotify",format="node-create-cipher-ctr"} 3"#
            ))
        #expect(try await stack.server.stop() == 0)
    }

    /// One secret file serves one provider (CONTRACT §9): named by two, start-up stops
    /// naming the setting; and `check-config` warns for the CTR format.
    @Test func aSharedSecretFileIsRefusedAndCTRIsWarnedAbout() async throws {
        let files = try LegacyMigrationTests.SecretFiles(formats: [Self.format]) { _ in
            "old-" + Deployment.random(20)
        }
        defer { files.remove() }
        let deployment = Deployment()
        var environment = deployment.environment(
            tokenURL: "https://accounts.example/api/token", keys: Deployment.newKey("k1"),
            extra: ["TOKENSWAP_SPOTIFY_LEGACY": files.setting([Self.format])])
        let warned = try await TokenSwapProcess.run(["check-config"], environment: environment)
        #expect(warned.status == 0)
        #expect(
            warned.stderr.contains(
                "warning: TOKENSWAP_SPOTIFY_LEGACY: node-create-cipher-ctr uses one fixed keystream"
            ))

        environment["TOKENSWAP_PROVIDERS"] = "spotify,acme"
        environment["TOKENSWAP_ACME_CLIENT_ID"] = "acme-client"
        environment["TOKENSWAP_ACME_CLIENT_SECRET"] = deployment.clientSecret
        environment["TOKENSWAP_ACME_REDIRECT_URI"] = Deployment.redirectURI
        environment["TOKENSWAP_ACME_TOKEN_URL"] = "https://acme.example/token"
        environment["TOKENSWAP_ACME_AUTH"] = "client_secret_post"
        // The same file by another spelling of its path.
        let path = files.directory.appendingPathComponent(Self.format).path
        let respelled =
            files.directory.path + "/./../" + files.directory.lastPathComponent
            + "/" + Self.format
        #expect(respelled != path)
        environment["TOKENSWAP_ACME_LEGACY"] = "node-create-cipher-cbc:\(respelled)"
        let refused = try await TokenSwapProcess.run(["check-config"], environment: environment)
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("tokenswap: TOKENSWAP_ACME_LEGACY: expected "))
        #expect(refused.stderr.contains("TOKENSWAP_SPOTIFY_LEGACY"))
        expectNoSecrets(
            in: [warned.stdout, warned.stderr, refused.stdout, refused.stderr],
            Array(files.secrets.values) + [deployment.clientSecret])
    }
}
