import Foundation
import TestSupport
import Testing

/// Grant families (CONTRACT §14) through the real binary: against the sandbox, which
/// rotates refresh tokens and ends the old one at once as Spotify does, and against the
/// stub where a provider must keep old tokens alive or send its own lifetime. Without
/// `TOKENSWAP_STATE_URL` each run is one copy, whose revocations live in its memory.
@Suite(.serialized, .resourceClass(.processes)) struct GrantFamilyEndToEndTests {
    static func refresh(_ port: UInt16, _ token: String) async throws -> Exchange.Answer {
        try await Exchange.form("/v1/refresh", port: port, [("refresh_token", token)])
    }

    static func revoke(_ port: UInt16, _ token: String) async throws -> Exchange.Answer {
        try await Exchange.form("/v1/revoke", port: port, [("token", token)])
    }

    /// The provider calls counted so far (`tokenswap_upstream_requests_total`, every outcome).
    static func providerCalls(_ port: UInt16) async throws -> Double {
        let text = try await OperationsTests.scrape(port)
        return text.split(separator: "\n")
            .filter { $0.hasPrefix("tokenswap_upstream_requests_total{") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            .reduce(0, +)
    }

    static func expectRevokedGrant(
        _ answer: Exchange.Answer, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(answer.status == 400, "\(answer)", sourceLocation: sourceLocation)
        #expect(answer.error == "invalid_grant", sourceLocation: sourceLocation)
        #expect(
            answer.string("error_description") == "the grant was revoked: sign in again",
            sourceLocation: sourceLocation)
    }

    /// Sign-out at a provider without a revocation API: `broker`, and the token sent, the
    /// one it was refreshed from and the one refreshed from it are all refused without a
    /// provider call. `check-config` says the revocations live in this copy's memory.
    @Test func revokingTheMiddleTokenEndsTheWholeFamily() async throws {
        let environment = ["TOKENSWAP_SPOTIFY_REVOCATION_STYLE": "none"]
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: environment)
        let port = server.port
        let (_, t0) = try await SandboxLifecycleTests.swap(port)
        let t1 = try #require(try await Self.refresh(port, t0).string("refresh_token"))
        let t2 = try #require(try await Self.refresh(port, t1).string("refresh_token"))
        #expect(Set([t0, t1, t2]).count == 3)
        let calls = try await Self.providerCalls(port)

        let revoked = try await Self.revoke(port, t1)
        #expect(revoked.status == 200)
        #expect(revoked.body == "{}")
        #expect(revoked.header("Tokenswap-Revocation") == "broker")
        for token in [t1, t0, t2] {
            Self.expectRevokedGrant(try await Self.refresh(port, token))
            let viaTokenEndpoint = try await Exchange.form(
                "/v1/token", port: port,
                [("grant_type", "refresh_token"), ("refresh_token", token)])
            Self.expectRevokedGrant(viaTokenEndpoint)
        }
        #expect(try await Self.providerCalls(port) == calls)

        let check = try await TokenSwapProcess.run(
            ["check-config", "--sandbox"], environment: environment)
        #expect(check.status == 0)
        #expect(check.stdout.contains("revocations: in this copy's memory, at most 100,000"))
        #expect(check.stdout.contains("they end with it (a restart forgets them)"))
        #expect(try await server.stop() == 0)
        expectNoSecrets(in: [server.output], [t0, t1, t2])
    }

    /// The header follows the style alone: `broker` without a revocation API, `forwarded`
    /// with one (the sandbox's RFC 7009 endpoint), the same for a genuine sealed token and
    /// a value that does not open.
    @Test(arguments: [("none", "broker"), ("rfc7009", "forwarded")])
    func theHeaderIsTheSameWhetherOrNotTheTokenOpened(style: String, header: String)
        async throws
    {
        let server = try await TokenSwapProcess.serve(
            ["--sandbox"], environment: ["TOKENSWAP_SPOTIFY_REVOCATION_STYLE": style])
        let port = server.port
        let (_, genuine) = try await SandboxLifecycleTests.swap(port)
        let answers = [
            try await Self.revoke(port, genuine),
            try await Self.revoke(port, LifecycleOracleTests.tampered(genuine)),
            try await Self.revoke(port, LifecycleOracleTests.random(like: genuine)),
        ]
        for answer in answers {
            #expect(answer.status == 200)
            #expect(answer.body == "{}")
            #expect(answer.header("Tokenswap-Revocation") == header)
        }
        Self.expectRevokedGrant(try await Self.refresh(port, genuine))
        #expect(try await server.stop() == 0)
    }

    /// Reuse detection on, replay window of 1 s: a repeat inside the window is a retry and
    /// gets the same answer; after it the older token revokes the family, the newest token
    /// dies too, one warning names the provider and a fingerprint, the counter moves.
    @Test func reuseAfterTheWindowRevokesTheNewestTokenToo() async throws {
        let server = try await TokenSwapProcess.serve(
            ["--sandbox"],
            environment: [
                "TOKENSWAP_SPOTIFY_REUSE_DETECTION": "on",
                "TOKENSWAP_REFRESH_REPLAY_SECONDS": "1",
            ])
        let port = server.port
        let (_, t0) = try await SandboxLifecycleTests.swap(port)
        let first = try await Self.refresh(port, t0)
        #expect(first.status == 200)
        let t1 = try #require(first.string("refresh_token"))
        let retry = try await Self.refresh(port, t0)
        #expect(retry.status == 200)
        #expect(retry.string("refresh_token") == t1)

        // Inside the 1 s window a repeat is the kept answer; the first repeat after it is
        // reuse, which ends the family.
        var afterTheWindow: Exchange.Answer?
        try await pollUntil(every: .milliseconds(100)) {
            let repeated = try await Self.refresh(port, t0)
            afterTheWindow = repeated
            return repeated.string("refresh_token") != t1
        }
        Self.expectRevokedGrant(try #require(afterTheWindow))
        Self.expectRevokedGrant(try await Self.refresh(port, t1))

        let metrics = try await OperationsTests.scrape(port)
        #expect(metrics.contains(#"tokenswap_refresh_reuse_detected_total{provider="spotify"} 1"#))
        #expect(try await server.stop() == 0)
        let warnings = server.output.split(separator: "\n").filter {
            $0.contains("refresh token reuse detected")
        }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("spotify") == true)
        #expect(warnings.first?.contains("family") == true)
        expectNoSecrets(in: [server.output], [t0, t1])
    }

    /// Detection off (the default): a provider that keeps old refresh tokens alive (the
    /// stub) still refreshes an older generation, long after the window.
    @Test func withDetectionOffOlderGenerationsKeepWorking() async throws {
        let stack = try await StubStack.start(extra: ["TOKENSWAP_REFRESH_REPLAY_SECONDS": "1"])
        let t0 = try await RevocationTests.sealedRefreshToken(stack, raw: "rt-gen-0")
        var newest = t0
        for generation in 1...2 {
            try await stack.stub.answerTokens([
                "access_token": "at-\(generation)", "expires_in": 3600,
                "refresh_token": "rt-gen-\(generation)",
            ])
            newest = try #require(
                try await Self.refresh(stack.port, newest).string("refresh_token"))
        }
        try await stack.stub.answerTokens([
            "access_token": "at-old", "expires_in": 3600, "refresh_token": "rt-gen-9",
        ])
        // Inside the 1 s window a repeat of t0 is its kept answer (at-1); after it, a new
        // provider call.
        var repeated: Exchange.Answer?
        try await pollUntil(every: .milliseconds(100)) {
            repeated = try await Self.refresh(stack.port, t0)
            return repeated?.string("access_token") != "at-1"
        }
        let old = try #require(repeated)
        #expect(old.status == 200, "\(old)")
        #expect(old.string("access_token") == "at-old")
        #expect(try await stack.finish(secrets: ["rt-gen-0", "rt-gen-1", "rt-gen-2", t0]) == 0)
    }

    /// A lifetime of 3 s: the swap says so, the provider's own smaller member wins, and
    /// after it the refresh is refused without a provider call.
    @Test func theLifetimeCountsDownAndRefusesAfter() async throws {
        let stack = try await StubStack.start(extra: [
            "TOKENSWAP_SPOTIFY_REFRESH_TOKEN_LIFETIME_SECONDS": "3",
            "TOKENSWAP_REFRESH_REPLAY_SECONDS": "0",
        ])
        try await stack.stub.answerTokens([
            "access_token": "at-life", "expires_in": 3600, "refresh_token": "rt-life",
        ])
        let swap = try await Exchange.form("/v1/swap", port: stack.port, [("code", "c-life")])
        #expect(swap.json?["refresh_token_expires_in"] as? Int == 3)
        let sealed = try #require(swap.string("refresh_token"))
        try await stack.stub.answerTokens([
            "access_token": "at-life-2", "expires_in": 3600, "refresh_token_expires_in": "1",
        ])
        let refreshed = try await Self.refresh(stack.port, sealed)
        #expect(refreshed.status == 200)
        #expect(refreshed.json?["refresh_token_expires_in"] as? Int == 1)

        // Time itself is what is tested: the grant's 3 s lifetime (whole seconds of the
        // wall clock) ends.
        try await Task.sleep(for: .milliseconds(3300))
        let calls = try await stack.stub.received().count
        let expired = try await Self.refresh(stack.port, sealed)
        #expect(expired.status == 400)
        #expect(expired.error == "invalid_grant")
        #expect(expired.string("error_description") == "the grant has expired: sign in again")
        #expect(try await stack.stub.received().count == calls)
        #expect(try await stack.finish(secrets: ["rt-life", sealed]) == 0)
    }

    /// Without `TOKENSWAP_STATE_URL` revocations live in the memory of the copy that took
    /// them, as the docs say: two copies with one key ring, a revocation on one, and the
    /// other still refreshes the family (and a restart of the first forgets it).
    @Test func withoutAStoreARevocationStaysInTheCopyThatTookIt() async throws {
        let deployment = Deployment()
        let keys = Deployment.newKey("A")
        let stub = try await ProviderStub.start()
        let environment = deployment.environment(
            tokenURL: stub.tokenURL(), keys: keys, extra: ["TOKENSWAP_REFRESH_REPLAY_SECONDS": "0"])
        let first = try await TokenSwapProcess.serve(environment: environment)
        let second = try await TokenSwapProcess.serve(environment: environment)
        try await stub.answerTokens([
            "access_token": "at-copies", "expires_in": 3600, "refresh_token": "rt-copies",
        ])
        let swap = try await Exchange.form("/v1/swap", port: first.port, [("code", "c-copies")])
        let sealed = try #require(swap.string("refresh_token"))
        #expect(
            try await Self.revoke(first.port, sealed).header("Tokenswap-Revocation") == "broker")
        Self.expectRevokedGrant(try await Self.refresh(first.port, sealed))
        #expect(try await Self.refresh(second.port, sealed).status == 200)
        #expect(try await first.stop() == 0)
        let restarted = try await TokenSwapProcess.serve(environment: environment)
        #expect(try await Self.refresh(restarted.port, sealed).status == 200)
        #expect(try await second.stop() == 0)
        #expect(try await restarted.stop() == 0)
        expectNoSecrets(
            in: [first.output, second.output, restarted.output],
            [deployment.clientSecret, "rt-copies", sealed] + Deployment.keyMaterial(keys))
    }

    /// With a shared store (`TOKENSWAP_STATE_URL`, a real redis-server) the copies behave
    /// as one service: a revocation on one copy is refused on the other, for the token sent
    /// and the one refreshed from it there, with no provider call; it survives a restart of
    /// both copies; and `check-config` says where revocations live.
    @Test func withAStoreARevocationOnOneCopyHoldsOnEveryCopy() async throws {
        let redis = try await RedisServer.start()
        defer { redis.stop() }
        let deployment = Deployment()
        let keys = Deployment.newKey("A")
        let stub = try await ProviderStub.start()
        let environment = deployment.environment(
            tokenURL: stub.tokenURL(), keys: keys,
            extra: ["TOKENSWAP_STATE_URL": redis.url, "TOKENSWAP_REFRESH_REPLAY_SECONDS": "0"])
        let first = try await TokenSwapProcess.serve(environment: environment)
        let second = try await TokenSwapProcess.serve(environment: environment)
        try await stub.answerTokens([
            "access_token": "at-shared", "expires_in": 3600, "refresh_token": "rt-shared-0",
        ])
        let swap = try await Exchange.form("/v1/swap", port: first.port, [("code", "c-shared")])
        let t0 = try #require(swap.string("refresh_token"))
        try await stub.answerTokens([
            "access_token": "at-shared-1", "expires_in": 3600, "refresh_token": "rt-shared-1",
        ])
        let t1 = try #require(try await Self.refresh(second.port, t0).string("refresh_token"))
        let calls = try await stub.received().count

        let revoked = try await Self.revoke(first.port, t0)
        #expect(revoked.status == 200)
        #expect(revoked.header("Tokenswap-Revocation") == "broker")
        for port in [second.port, first.port] {
            Self.expectRevokedGrant(try await Self.refresh(port, t0))
            Self.expectRevokedGrant(try await Self.refresh(port, t1))
        }
        #expect(try await stub.received().count == calls)

        #expect(try await first.stop() == 0)
        #expect(try await second.stop() == 0)
        let restarted = try await TokenSwapProcess.serve(environment: environment)
        Self.expectRevokedGrant(try await Self.refresh(restarted.port, t1))
        #expect(try await stub.received().count == calls)
        #expect(try await restarted.stop() == 0)

        let check = try await TokenSwapProcess.run(["check-config"], environment: environment)
        #expect(check.status == 0)
        #expect(check.stdout.contains("revocations: in the shared store"))
        #expect(check.stdout.contains("a restart keeps them"))
        expectNoSecrets(
            in: [first.output, second.output, restarted.output, check.stdout, check.stderr],
            [deployment.clientSecret, "rt-shared-0", "rt-shared-1", t0, t1]
                + Deployment.keyMaterial(keys))
    }

    /// Reuse detection across copies sharing a store: the newest generation recorded by
    /// one copy makes an older token presented to the other a reuse.
    @Test func withAStoreReuseOnAnotherCopyIsSeen() async throws {
        let redis = try await RedisServer.start()
        defer { redis.stop() }
        let deployment = Deployment()
        let keys = Deployment.newKey("A")
        let stub = try await ProviderStub.start()
        let environment = deployment.environment(
            tokenURL: stub.tokenURL(), keys: keys,
            extra: [
                "TOKENSWAP_STATE_URL": redis.url, "TOKENSWAP_REFRESH_REPLAY_SECONDS": "0",
                "TOKENSWAP_SPOTIFY_REUSE_DETECTION": "on",
            ])
        let first = try await TokenSwapProcess.serve(environment: environment)
        let second = try await TokenSwapProcess.serve(environment: environment)
        try await stub.answerTokens([
            "access_token": "at-reuse", "expires_in": 3600, "refresh_token": "rt-reuse",
        ])
        let swap = try await Exchange.form("/v1/swap", port: first.port, [("code", "c-reuse")])
        let t0 = try #require(swap.string("refresh_token"))
        let t1 = try #require(try await Self.refresh(first.port, t0).string("refresh_token"))
        Self.expectRevokedGrant(try await Self.refresh(second.port, t0))
        Self.expectRevokedGrant(try await Self.refresh(first.port, t1))
        #expect(try await first.stop() == 0)
        #expect(try await second.stop() == 0)
        #expect(second.output.contains("refresh token reuse detected"))
        expectNoSecrets(
            in: [first.output, second.output],
            [deployment.clientSecret, "rt-reuse", t0, t1] + Deployment.keyMaterial(keys))
    }

    /// A legacy token (CONTRACT §9) has no family; its first refresh makes one, whose
    /// lifetime starts then and whose revocation ends the native token that came back.
    @Test func aLegacyTokenGetsAFamilyAtItsFirstRefresh() async throws {
        let format = "spotifyapiserver-gcm"
        let files = try LegacyMigrationTests.SecretFiles(formats: [format]) { _ in
            "old-" + Deployment.random(20)
        }
        defer { files.remove() }
        let stack = try await StubStack.start(extra: [
            "TOKENSWAP_SPOTIFY_LEGACY": files.setting([format]),
            "TOKENSWAP_SPOTIFY_REFRESH_TOKEN_LIFETIME_SECONDS": "1000",
        ])
        let raw = "AQ" + Deployment.random(60)
        let legacy = try await LegacyMigrationTests.legacyToken(
            format, secret: try #require(files.secrets[format]), plaintext: raw)
        try await stack.stub.answerTokens(["access_token": "at-legacy", "expires_in": 3600])
        let first = try await Self.refresh(stack.port, legacy)
        #expect(first.status == 200)
        let lifetime = try #require(first.json?["refresh_token_expires_in"] as? Int)
        #expect((998...1000).contains(lifetime))
        let native = try #require(first.string("refresh_token"))
        #expect(native != legacy)

        _ = try await Self.revoke(stack.port, native)
        Self.expectRevokedGrant(try await Self.refresh(stack.port, native))
        #expect(
            try await stack.finish(secrets: [raw, legacy, native] + Array(files.secrets.values))
                == 0)
    }
}
