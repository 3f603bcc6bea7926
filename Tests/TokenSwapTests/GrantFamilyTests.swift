import HTTPClient
import HTTPCore
import Synchronization
import Testing
import Transport

@testable import Sealing
@testable import TokenSwap
@testable import TokenSwapFixtures

/// CONTRACT §14 through the handlers, against `RecordingUpstream` and a `MemoryStateStore`
/// on a hand-moved clock: families made by the swap and kept by refreshes, revocation at
/// the broker, reuse detection after the replay window, and the grant's lifetime.
@Suite struct GrantFamilyTests {
    typealias F = GrantEndpointsFixtures

    /// A service with its state in memory on `clock` (each provider brings its own policy).
    struct Stack {
        let service: GrantEndpoints
        let upstream: RecordingUpstream
        let clock: TestClock
        let logs: LogCapture
        let metrics: ServiceMetrics
    }

    static func stack(
        _ answers: RecordingUpstream.Answer..., replaySeconds: Int = 0, provider: Provider
    ) throws -> Stack {
        let upstream = RecordingUpstream(answers)
        let clock = TestClock()
        let logs = LogCapture()
        let metrics = ServiceMetrics()
        let service = GrantEndpoints(
            keyRing: try KeyRing(parsing: F.newKey + "," + F.oldKey), transport: upstream,
            upstreamTimeoutSeconds: 2, logger: logs.logger, metrics: metrics,
            refreshReplaySeconds: replaySeconds,
            state: MemoryStateStore(clock: { clock.deadline }),
            unixClock: { clock.unix })
        return Stack(
            service: service, upstream: upstream, clock: clock, logs: logs, metrics: metrics)
    }

    static func rotated(_ raw: String, extra: String = "") -> RecordingUpstream.Answer {
        RecordingUpstream.json(
            200,
            #"{"access_token":"at-\#(raw)","token_type":"Bearer","expires_in":3600,"refresh_token":"\#(raw)"\#(extra)}"#
        )
    }

    static func swap(_ stack: Stack, provider: Provider) async -> HTTPResponse {
        await stack.service.answer {
            $0.swap(F.form("code=c1"), provider: provider, completion: $1)
        }.response
    }

    static func refresh(_ sealed: String, _ stack: Stack, provider: Provider) async
        -> HTTPResponse
    {
        await stack.service.answer {
            $0.refresh(
                F.form(
                    "refresh_token=\(FormURLEncoding.encodeComponent(sealed))", path: "/v1/refresh"),
                provider: provider, completion: $1)
        }.response
    }

    static func revoke(_ token: String, _ stack: Stack, provider: Provider) async -> HTTPResponse {
        await stack.service.lifecycle.revoke(
            F.form("token=\(FormURLEncoding.encodeComponent(token))", path: "/v1/revoke"),
            provider: provider
        ).response
    }

    static func sealed(_ response: HTTPResponse) throws -> String {
        try #require(try F.body(response)["refresh_token"]?.stringValue)
    }

    static func grant(_ sealed: String, provider: Provider) throws -> SealedGrant {
        try #require(try F.open(sealed, keys: F.newKey, provider: provider).grant)
    }

    static func expectRefused(
        _ response: HTTPResponse, _ description: String = "the grant was revoked: sign in again",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(response.status.code == 400, sourceLocation: sourceLocation)
        let body = try F.body(response)
        #expect(body["error"]?.stringValue == "invalid_grant", sourceLocation: sourceLocation)
        #expect(
            body["error_description"]?.stringValue == description, sourceLocation: sourceLocation)
    }

    // MARK: Families

    @Test func theSwapStartsAFamilyAndEveryRefreshKeepsItOneGenerationOn() async throws {
        let provider = try F.provider()
        let stack = try Self.stack(
            Self.rotated("r0"), Self.rotated("r1"),
            RecordingUpstream.json(200, #"{"access_token":"a3","expires_in":3600}"#),
            provider: provider)
        let first = try Self.sealed(await Self.swap(stack, provider: provider))
        let zero = try Self.grant(first, provider: provider)
        #expect(zero.generation == 0)
        #expect(zero.startTime == UInt64(TestClock.start))

        stack.clock.advance(seconds: 100)
        let second = try Self.sealed(await Self.refresh(first, stack, provider: provider))
        let one = try Self.grant(second, provider: provider)
        #expect(one.familyID == zero.familyID)
        #expect(one.startTime == zero.startTime)
        #expect(one.generation == 1)

        // Not rotated, detection off: the same token back, its family unchanged.
        let third = try Self.sealed(await Self.refresh(second, stack, provider: provider))
        #expect(third == second)
        #expect(Set([first, second]).count == 2)
    }

    /// CONTRACT §14: a token sealed before families existed belongs to the family derived
    /// from it, generation 0, the same for every copy of it, on every copy of the service
    /// and every time; its refresh answer is generation 1 of that family.
    @Test func aTokenSealedBeforeFamiliesBelongsToTheFamilyDerivedFromIt() async throws {
        let provider = try F.provider()
        let answer = RecordingUpstream.json(200, #"{"access_token":"a2","expires_in":3600}"#)
        let stack = try Self.stack(answer, answer, answer, provider: provider)
        let otherCopy = try Self.stack(answer, provider: provider)
        let versionOne = try Self.versionOneToken("raw-v1", provider: provider)
        #expect(try F.open(versionOne, keys: F.newKey, provider: provider).grant == nil)
        var families: [SealedGrant] = []
        for copy in [stack, stack, otherCopy] {
            let sealed = try Self.sealed(await Self.refresh(versionOne, copy, provider: provider))
            #expect(sealed != versionOne)
            let opened = try F.open(sealed, keys: F.newKey, provider: provider)
            #expect(opened.plaintextString == "raw-v1")
            families.append(try #require(opened.grant))
        }
        #expect(families.allSatisfy { $0.familyID == families[0].familyID })
        #expect(families.allSatisfy { $0.generation == 1 && $0.thumbprint == nil })
        #expect(families[0].startTime == UInt64(TestClock.start))
        // Another token's family is another.
        let another = try Self.sealed(
            await Self.refresh(
                try Self.versionOneToken("raw-v2", provider: provider), stack,
                provider: provider))
        #expect(try Self.grant(another, provider: provider).familyID != families[0].familyID)
    }

    /// Issue 34's first finding: the app refreshes its old token once and signs out; a
    /// thief's copy of the same old token is then refused too, without a provider call.
    @Test func signingOutEndsAStolenCopyOfATokenSealedBeforeFamilies() async throws {
        let provider = try F.provider()
        let stack = try Self.stack(Self.rotated("r1"), Self.rotated("r2"), provider: provider)
        let old = try Self.versionOneToken("raw-v1", provider: provider)
        let appsToken = try Self.sealed(await Self.refresh(old, stack, provider: provider))
        #expect(await Self.revoke(appsToken, stack, provider: provider).status.code == 200)
        try Self.expectRefused(await Self.refresh(old, stack, provider: provider))
        try Self.expectRefused(await Self.refresh(appsToken, stack, provider: provider))
        #expect(stack.upstream.requests.count == 1)
    }

    /// The same for a legacy token (CONTRACT §9): its family is derived from it too.
    @Test func signingOutEndsAStolenCopyOfALegacyToken() async throws {
        let provider = try GrantEndpointsLegacyTests.provider()
        let stack = try Self.stack(Self.rotated("r1"), Self.rotated("r2"), provider: provider)
        let legacy = try GrantEndpointsLegacyTests.ctrToken("legacy-refresh-token-1")
        let appsToken = try Self.sealed(await Self.refresh(legacy, stack, provider: provider))
        #expect(await Self.revoke(appsToken, stack, provider: provider).status.code == 200)
        // A legacy format's failures are one answer (CONTRACT §9): refused, not called.
        let refused = await Self.refresh(legacy, stack, provider: provider)
        #expect(refused.status.code == 400)
        #expect(try F.body(refused)["error"]?.stringValue == "invalid_grant")
        #expect(stack.upstream.requests.count == 1)
    }

    /// Revoking the old token itself ends every token refreshed from it.
    @Test func revokingATokenSealedBeforeFamiliesEndsTheTokensRefreshedFromIt() async throws {
        let provider = try F.provider()
        let stack = try Self.stack(Self.rotated("r1"), provider: provider)
        let old = try Self.versionOneToken("raw-v1", provider: provider)
        let appsToken = try Self.sealed(await Self.refresh(old, stack, provider: provider))
        #expect(await Self.revoke(old, stack, provider: provider).status.code == 200)
        try Self.expectRefused(await Self.refresh(appsToken, stack, provider: provider))
        #expect(stack.upstream.requests.count == 1)
    }

    /// A revocation an earlier version recorded for such a token (under the token as
    /// sent) still holds.
    @Test func aRevocationRecordedByAnEarlierVersionStillHolds() async throws {
        let provider = try F.provider()
        let stack = try Self.stack(provider: provider)
        let old = try Self.versionOneToken("raw-v1", provider: provider)
        let key = try #require(
            stack.service.families.revocationKey(tokenWithoutFamily: old, provider: provider))
        let recorded = MemoryStateStoreTests.Answers<Bool>()
        stack.service.state.insertIfAbsent(key, keepFor: .seconds(60), completion: recorded.record)
        try Self.expectRefused(await Self.refresh(old, stack, provider: provider))
        #expect(stack.upstream.requests.isEmpty)
    }

    /// With reuse detection on, an old copy of a token sealed before families, presented
    /// after its first refresh, is an older generation: the family is revoked.
    @Test func reuseDetectionSeesAnOldCopyOfATokenSealedBeforeFamilies() async throws {
        let provider = try F.provider(familyPolicy: GrantFamilyPolicy(reuseDetection: true))
        let stack = try Self.stack(
            Self.rotated("r1"), provider: provider)
        let old = try Self.versionOneToken("raw-v1", provider: provider)
        let appsToken = try Self.sealed(await Self.refresh(old, stack, provider: provider))
        try Self.expectRefused(await Self.refresh(old, stack, provider: provider))
        try Self.expectRefused(await Self.refresh(appsToken, stack, provider: provider))
        #expect(stack.upstream.requests.count == 1)
        let exposition = String(decoding: await stack.metrics.exposition(), as: UTF8.self)
        #expect(exposition.contains("tokenswap_refresh_reuse_detected_total"))
    }

    @Test func generationsSaturateAtTheTop() throws {
        let top = try #require(
            SealedGrant(
                thumbprint: nil, familyID: Array(repeating: 7, count: 16), startTime: 1,
                generation: .max))
        #expect(top.nextGeneration(thumbprint: nil)?.generation == .max)
    }

    // MARK: Revocation at the broker

    @Test func revokingEndsEveryTokenOfTheFamilyWithoutAProviderCall() async throws {
        let provider = try F.provider()
        let stack = try Self.stack(
            Self.rotated("r0"), Self.rotated("r1"), Self.rotated("r2"), provider: provider)
        let t0 = try Self.sealed(await Self.swap(stack, provider: provider))
        let t1 = try Self.sealed(await Self.refresh(t0, stack, provider: provider))
        let t2 = try Self.sealed(await Self.refresh(t1, stack, provider: provider))
        let calls = stack.upstream.requests.count

        let revoked = await Self.revoke(t1, stack, provider: provider)
        #expect(revoked.status.code == 200)
        #expect(revoked.headers["Tokenswap-Revocation"] == "broker")
        #expect(revoked.body == Array("{}".utf8))
        // The token sent, the one it was refreshed from and the one refreshed from it.
        for token in [t1, t0, t2] {
            try Self.expectRefused(await Self.refresh(token, stack, provider: provider))
        }
        #expect(stack.upstream.requests.count == calls)
        // Revoking again changes nothing and still answers 200.
        #expect(await Self.revoke(t2, stack, provider: provider).status.code == 200)
    }

    @Test func aRepeatInsideTheReplayWindowIsRefusedOnceTheFamilyIsRevoked() async throws {
        let provider = try F.provider()
        let stack = try Self.stack(
            Self.rotated("r0"), Self.rotated("r1"), replaySeconds: 60, provider: provider)
        let t0 = try Self.sealed(await Self.swap(stack, provider: provider))
        let first = await Self.refresh(t0, stack, provider: provider)
        #expect(first.status.code == 200)
        // Inside the window a repeat gets the kept answer...
        #expect(await Self.refresh(t0, stack, provider: provider).body == first.body)
        _ = await Self.revoke(t0, stack, provider: provider)
        // ...until the family is revoked: the check runs before the replay.
        try Self.expectRefused(await Self.refresh(t0, stack, provider: provider))
        #expect(stack.upstream.requests.count == 2)
    }

    @Test func aTokenWithoutAFamilyIsRevokedByItself() async throws {
        let provider = try F.provider()
        let stack = try Self.stack(provider: provider)
        let versionOne = try Self.versionOneToken("raw-v1", provider: provider)
        _ = await Self.revoke(versionOne, stack, provider: provider)
        try Self.expectRefused(await Self.refresh(versionOne, stack, provider: provider))
        #expect(stack.upstream.requests.isEmpty)
    }

    /// A legacy format may be unauthenticated (CTR: anyone can forge a token that opens), so
    /// revoking one records nothing: otherwise forged values could fill the store. The
    /// store is looked up instead, as for a value that does not open.
    @Test func revokingALegacyTokenRecordsNothing() async throws {
        let provider = try GrantEndpointsLegacyTests.provider()
        let stack = try Self.stack(
            RecordingUpstream.json(200, #"{"access_token":"a2","expires_in":3600}"#),
            provider: provider)
        let forged = try GrantEndpointsLegacyTests.ctrToken("forged-refresh-token-1")
        let revoked = await Self.revoke(forged, stack, provider: provider)
        #expect(revoked.status.code == 200)
        #expect(revoked.headers["Tokenswap-Revocation"] == "broker")
        let refreshed = await Self.refresh(forged, stack, provider: provider)
        #expect(refreshed.status.code == 200)
        #expect(stack.upstream.requests.count == 1)
    }

    /// CONTRACT §8: the header follows the style alone; a genuine, a tampered and a random
    /// token get the same status, headers and body, and only the genuine one is recorded.
    @Test(arguments: [(RevocationStyle.none, "broker"), (.rfc7009, "forwarded")])
    func theRevocationHeaderNeverTellsWhetherTheTokenOpened(
        style: RevocationStyle, header: String
    ) async throws {
        let base = try F.provider()
        let provider = Provider(
            name: base.name, preset: base.preset, tokenURL: base.tokenURL,
            clientID: base.clientID, clientSecret: base.clientSecret,
            authMethod: base.authMethod, redirectURI: base.redirectURI,
            lifecycle: ProviderLifecycle(
                revocationStyle: style,
                revocationURL: style == .none
                    ? nil : try UpstreamURL("https://accounts.example/revoke")))
        let revocationAnswers = (0..<3).map { _ in RecordingUpstream.json(200, "{}") }
        let stack = try Self.stack(provider: provider)
        let upstream = RecordingUpstream([Self.rotated("r0")] + revocationAnswers)
        let service = GrantEndpoints(
            keyRing: try KeyRing(parsing: F.newKey), transport: upstream,
            upstreamTimeoutSeconds: 2, logger: stack.logs.logger, refreshReplaySeconds: 0,
            state: MemoryStateStore(clock: { stack.clock.deadline }),
            unixClock: { stack.clock.unix })
        let genuine = try Self.sealed(
            await service.answer {
                $0.swap(F.form("code=c1"), provider: provider, completion: $1)
            }.response)
        var tampered = Array(genuine)
        tampered[tampered.count / 2] = tampered[tampered.count / 2] == "A" ? "B" : "A"
        let random = String(repeating: "Q", count: genuine.count)
        var answers: [HTTPResponse] = []
        for token in [genuine, String(tampered), random] {
            answers.append(
                await service.lifecycle.revoke(
                    F.form("token=\(token)", path: "/v1/revoke"), provider: provider
                ).response)
        }
        for answer in answers {
            #expect(answer.status.code == 200)
            #expect(answer.headers["Tokenswap-Revocation"] == header)
            #expect(answer.body == answers[0].body)
            #expect(answer.headers.count == answers[0].headers.count)
        }
        #expect(upstream.requests.count == (style == .none ? 1 : 4))
        let refused = await service.answer {
            $0.refresh(
                F.form("refresh_token=\(genuine)", path: "/v1/refresh"), provider: provider,
                completion: $1)
        }.response
        try Self.expectRefused(refused)
    }

    /// A store that must not be bypassed and is down (`TOKENSWAP_STATE_FAILURE=closed`):
    /// a refresh and a revocation are 503 with `Retry-After` (the client keeps its token and
    /// retries), never a 200 that would claim a revocation that was not recorded; and the
    /// revocation's answer is the same for a genuine and a random token (no oracle).
    @Test func aStoreThatIsDownIsA503ForRefreshAndRevocationAlike() async throws {
        let provider = try F.provider()
        let store = FlakyStateStore()
        let upstream = RecordingUpstream(Self.rotated("r0"))
        let service = GrantEndpoints(
            keyRing: try KeyRing(parsing: F.newKey), transport: upstream,
            upstreamTimeoutSeconds: 2, logger: LogCapture().logger, state: store)
        let genuine = try Self.sealed(
            await service.answer {
                $0.swap(F.form("code=c1"), provider: provider, completion: $1)
            }.response)
        store.setDown(true)
        let refreshed = await service.answer {
            $0.refresh(
                F.form("refresh_token=\(genuine)", path: "/v1/refresh"), provider: provider,
                completion: $1)
        }.response
        #expect(refreshed.status.code == 503)
        #expect(refreshed.headers["Retry-After"] == "1")
        var answers: [HTTPResponse] = []
        for token in [genuine, String(repeating: "Q", count: genuine.count)] {
            answers.append(
                await service.lifecycle.revoke(
                    F.form("token=\(token)", path: "/v1/revoke"), provider: provider
                ).response)
        }
        for answer in answers {
            #expect(answer.status.code == 503)
            #expect(try F.body(answer)["error"]?.stringValue == "temporarily_unavailable")
            #expect(answer.body == answers[0].body)
            #expect(answer.headers["Retry-After"] == "1")
            #expect(answer.headers["Tokenswap-Revocation"] == nil)
        }
        #expect(upstream.requests.count == 1)
        // Back up: nothing was recorded while it was down, and the grant still refreshes.
        store.setDown(false)
        let upstreamAgain = RecordingUpstream(Self.rotated("r1"))
        let again = GrantEndpoints(
            keyRing: try KeyRing(parsing: F.newKey), transport: upstreamAgain,
            upstreamTimeoutSeconds: 2, logger: LogCapture().logger, state: store)
        let after = await again.answer {
            $0.refresh(
                F.form("refresh_token=\(genuine)", path: "/v1/refresh"), provider: provider,
                completion: $1)
        }.response
        #expect(after.status.code == 200)
    }

    // MARK: Reuse detection

    @Test func anOlderGenerationAfterTheWindowRevokesTheFamilyAndTheNewestToken() async throws {
        let provider = try F.provider(
            name: "acme", familyPolicy: GrantFamilyPolicy(reuseDetection: true))
        let stack = try Self.stack(
            Self.rotated("r0"), Self.rotated("r1"), Self.rotated("r2"),
            replaySeconds: 60,
            provider: provider)
        let t0 = try Self.sealed(await Self.swap(stack, provider: provider))
        let first = await Self.refresh(t0, stack, provider: provider)
        let t1 = try Self.sealed(first)
        #expect(try Self.grant(t1, provider: provider).generation == 1)

        // A repeat inside the window is a retry: the kept answer, no provider call.
        stack.clock.advance(seconds: 30)
        #expect(try Self.sealed(await Self.refresh(t0, stack, provider: provider)) == t1)
        #expect(stack.upstream.requests.count == 2)

        // After the window the older generation is reuse.
        stack.clock.advance(seconds: 31)
        try Self.expectRefused(await Self.refresh(t0, stack, provider: provider))
        // The newest token is dead too, and nothing more reached the provider.
        try Self.expectRefused(await Self.refresh(t1, stack, provider: provider))
        #expect(stack.upstream.requests.count == 2)

        let warnings = stack.logs.all.filter { $0.contains("reuse detected") }
        #expect(warnings.count == 1)
        let fingerprint = GrantFamilies.fingerprint(try Self.grant(t0, provider: provider))
        #expect(fingerprint.count == 8)
        #expect(warnings.first?.contains("provider=acme") == true)
        #expect(warnings.first?.contains("family=\(fingerprint)") == true)
        for secret in [
            t0, t1, "r0", "r1", Hex.encode(try Self.grant(t0, provider: provider).familyID),
        ] {
            #expect(!stack.logs.all.joined().contains(secret))
        }
        let metrics = await ServiceMetricsTests.text(stack.metrics)
        #expect(metrics.contains(#"tokenswap_refresh_reuse_detected_total{provider="acme"} 1"#))
    }

    @Test func withoutAReplayWindowAnyOlderGenerationIsReuse() async throws {
        let provider = try F.provider(familyPolicy: GrantFamilyPolicy(reuseDetection: true))
        let stack = try Self.stack(
            Self.rotated("r0"), Self.rotated("r1"), Self.rotated("r2"),
            provider: provider)
        let t0 = try Self.sealed(await Self.swap(stack, provider: provider))
        let t1 = try Self.sealed(await Self.refresh(t0, stack, provider: provider))
        let t2 = try Self.sealed(await Self.refresh(t1, stack, provider: provider))
        try Self.expectRefused(await Self.refresh(t1, stack, provider: provider))
        try Self.expectRefused(await Self.refresh(t2, stack, provider: provider))
        #expect(stack.upstream.requests.count == 3)
    }

    @Test func reuseAlsoRevokesAtAProviderWhoseStyleTakesRefreshTokens() async throws {
        let base = try F.provider()
        let provider = Provider(
            name: base.name, preset: base.preset, tokenURL: base.tokenURL,
            clientID: base.clientID, clientSecret: base.clientSecret,
            authMethod: base.authMethod, redirectURI: base.redirectURI,
            lifecycle: ProviderLifecycle(
                revocationStyle: .rfc7009,
                revocationURL: try UpstreamURL("https://accounts.example/revoke")),
            familyPolicy: GrantFamilyPolicy(reuseDetection: true))
        let stack = try Self.stack(
            Self.rotated("r0"), Self.rotated("r1"), Self.rotated("r2"),
            RecordingUpstream.json(200, ""),
            provider: provider)
        let t0 = try Self.sealed(await Self.swap(stack, provider: provider))
        let t1 = try Self.sealed(await Self.refresh(t0, stack, provider: provider))
        _ = try Self.sealed(await Self.refresh(t1, stack, provider: provider))
        try Self.expectRefused(await Self.refresh(t0, stack, provider: provider))
        let revocation = try #require(stack.upstream.requests.last)
        #expect(revocation.target == "/revoke")
        let fields = try F.sentFields(revocation)
        #expect(fields["token"] == "r0")
        #expect(fields["token_type_hint"] == "refresh_token")
    }

    @Test func withDetectionOffOlderGenerationsKeepWorking() async throws {
        let provider = try F.provider()
        let stack = try Self.stack(
            Self.rotated("r0"), Self.rotated("r1"), Self.rotated("r2"), Self.rotated("r3"),
            provider: provider)
        let t0 = try Self.sealed(await Self.swap(stack, provider: provider))
        let t1 = try Self.sealed(await Self.refresh(t0, stack, provider: provider))
        _ = try Self.sealed(await Self.refresh(t1, stack, provider: provider))
        stack.clock.advance(seconds: 3600)
        #expect(await Self.refresh(t0, stack, provider: provider).status.code == 200)
        #expect(stack.upstream.requests.count == 4)
    }

    @Test func withDetectionOnAnUnrotatedTokenStillComesBackAsTheNextGeneration() async throws {
        let provider = try F.provider(familyPolicy: GrantFamilyPolicy(reuseDetection: true))
        let stack = try Self.stack(
            Self.rotated("r0"),
            RecordingUpstream.json(200, #"{"access_token":"a2","expires_in":3600}"#),
            provider: provider)
        let t0 = try Self.sealed(await Self.swap(stack, provider: provider))
        let t1 = try Self.sealed(await Self.refresh(t0, stack, provider: provider))
        #expect(t1 != t0)
        #expect(try Self.grant(t1, provider: provider).generation == 1)
        try Self.expectRefused(await Self.refresh(t0, stack, provider: provider))
    }

    // MARK: Lifetime

    @Test func theLifetimeCountsDownInEveryAnswerAndRefusesAfterIt() async throws {
        let provider = try F.provider(
            familyPolicy: GrantFamilyPolicy(refreshTokenLifetimeSeconds: 100))
        let stack = try Self.stack(
            Self.rotated("r0"), Self.rotated("r1"),
            Self.rotated("r2", extra: #","refresh_token_expires_in":"30""#),
            provider: provider)
        let swapped = await Self.swap(stack, provider: provider)
        #expect(try F.body(swapped)["refresh_token_expires_in"] == .number("100"))
        let t0 = try Self.sealed(swapped)

        stack.clock.advance(seconds: 40)
        let refreshed = await Self.refresh(t0, stack, provider: provider)
        #expect(try F.body(refreshed)["refresh_token_expires_in"] == .number("60"))
        // The provider's own member, smaller, wins (normalised to an integer).
        let t1 = try Self.sealed(refreshed)
        let own = await Self.refresh(t1, stack, provider: provider)
        #expect(try F.body(own)["refresh_token_expires_in"] == .number("30"))

        stack.clock.advance(seconds: 60)
        try Self.expectRefused(
            await Self.refresh(try Self.sealed(own), stack, provider: provider),
            "the grant has expired: sign in again")
        #expect(stack.upstream.requests.count == 3)
    }

    @Test func anUnknownLifetimeAddsNothingAndPassesTheProvidersOwnMember() async throws {
        let provider = try F.provider()
        let stack = try Self.stack(
            Self.rotated("r0"), Self.rotated("r1", extra: #","refresh_token_expires_in":7200"#),
            provider: provider)
        let swapped = await Self.swap(stack, provider: provider)
        #expect(try F.body(swapped)["refresh_token_expires_in"] == nil)
        let refreshed = await Self.refresh(try Self.sealed(swapped), stack, provider: provider)
        #expect(try F.body(refreshed)["refresh_token_expires_in"] == .number("7200"))
    }

    @Test func aStartTimeInTheFutureOrFarPastSaturates() {
        let policy = GrantFamilyPolicy(refreshTokenLifetimeSeconds: 100)
        #expect(policy.secondsLeft(startTime: .max, now: 5) == 100)
        #expect(policy.secondsLeft(startTime: 0, now: .max) == 0)
        #expect(policy.secondsLeft(startTime: 10, now: -5) == 100)
        #expect(GrantFamilyPolicy().secondsLeft(startTime: 0, now: 1) == nil)
    }

    // MARK: Helpers

    /// A token in the sealed form of version 1 (no family), as sealed before §13–§14.
    static func versionOneToken(_ raw: String, provider: Provider) throws -> String {
        let ring = try KeyRing(parsing: F.newKey)
        let context = SealingContext(provider: provider.name, clientID: provider.clientID)
        return try Array(raw.utf8).withUnsafeBytes { bytes in
            try ring.seal(version: 1, plaintext: bytes, context: context)
        }
    }
}
