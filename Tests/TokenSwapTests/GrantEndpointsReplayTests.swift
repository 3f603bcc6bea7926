import HTTPClient
import HTTPCore
import Sealing
import Synchronization
import Testing
import Transport

@testable import TokenSwap
@testable import TokenSwapFixtures

/// The retry-safe refresh through the handlers (CONTRACT §12), on a memory store with an
/// injected clock and timers: a repeat within the window gets the same answer without a
/// provider call, `expires_in` counting down; concurrent requests share one call; only a
/// `200` and a `400 invalid_grant` are kept; swaps are never replayed; a kept answer that
/// no longer opens counts as absent.
@Suite struct GrantEndpointsReplayTests {
    typealias F = GrantEndpointsFixtures
    typealias Clock = MemoryStateStoreTests.ManualClock
    typealias Timers = MemoryStateStoreTests.ManualTimers

    static let tokens =
        #"{"access_token":"access-1","token_type":"Bearer","scope":"s","expires_in":3600,"refresh_token":"raw-rotated"}"#


    struct Fixture {
        let clock = Clock()
        let timers = Timers()
        let metrics = ServiceMetrics()
        let logs = LogCapture()
        let store: MemoryStateStore
        let service: GrantEndpoints
        let provider: Provider

        init(
            _ upstream: any UpstreamTransport, keys: String = F.newKey + "," + F.oldKey,
            replaySeconds: Int = 60, store: MemoryStateStore? = nil, capacity: Int = 100
        ) throws {
            let (clock, timers) = (self.clock, self.timers)
            let evictions = replaySeconds > 0 ? metrics.refreshReplayEvictionCounter() : nil
            self.store =
                store
                ?? MemoryStateStore(
                    replayCapacity: capacity, shardCount: 1, clock: { clock.now },
                    timers: timers.timers, onEviction: { evictions?.increment() })
            provider = try F.provider()
            service = GrantEndpoints(
                keyRing: try KeyRing(parsing: keys), transport: upstream,
                upstreamTimeoutSeconds: 2, logger: logs.logger, metrics: metrics,
                refreshReplaySeconds: replaySeconds, state: self.store)
        }

        func refresh(_ sealed: String, path: String = "/v1/refresh") async -> HTTPResponse {
            await service.answer {
                $0.refresh(
                    F.form("refresh_token=\(sealed)", path: path), provider: provider,
                    completion: $1)
            }.response
        }

        func metricsText() async -> String {
            String(decoding: await metrics.exposition(), as: UTF8.self)
        }
    }

    @Test func aRepeatGetsTheSameAnswerWithExpiresInCountedDown() async throws {
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.tokens))
        let fixture = try Fixture(upstream)
        let sealed = try F.seal("raw-1", keys: F.newKey, provider: fixture.provider)
        let first = await fixture.refresh(sealed)
        #expect(first.status.code == 200)
        fixture.clock.advance(seconds: 12.7)
        let again = await fixture.refresh(sealed)
        #expect(again.status.code == 200)
        GrantErrorTests.expectTokenHeaders(again)
        #expect(upstream.requests.count == 1)
        let (one, two) = (try F.body(first), try F.body(again))
        #expect(two["expires_in"] == .number("3588"))
        // Every other member the same: the same access token, the same sealed refresh token.
        guard case .object(let firstMembers) = one, case .object(let againMembers) = two else {
            Issue.record("not objects")
            return
        }
        #expect(
            firstMembers.filter { $0.name != "expires_in" }
                == againMembers.filter { $0.name != "expires_in" })
        #expect(firstMembers.map(\.name) == againMembers.map(\.name))
        #expect(
            await fixture.metricsText().contains(
                #"tokenswap_refresh_replays_total{provider="spotify",reason="window"} 1"#))
        // Past the window, it is a new refresh (the provider says what it now says).
        fixture.clock.advance(seconds: 48)
        #expect(await fixture.refresh(sealed).status.code == 502)
        #expect(upstream.requests.count == 2)
    }

    @Test func concurrentRefreshesMakeOneProviderCallAndGetTheSameAnswer() async throws {
        let upstream = HeldUpstream(RecordingUpstream.json(200, Self.tokens))
        let fixture = try Fixture(upstream)
        let sealed = try F.seal("raw-2", keys: F.newKey, provider: fixture.provider)
        let collected = CollectedAnswers()
        for path in ["/v1/refresh", "/refresh", "/v1/refresh"] {
            fixture.service.refresh(
                F.form("refresh_token=\(sealed)", path: path), provider: fixture.provider,
                completion: collected.record)
        }
        #expect(upstream.callCount == 1)
        #expect(collected.all.isEmpty)
        upstream.release()
        let answers = collected.all
        #expect(answers.count == 3)
        #expect(answers.allSatisfy { $0.status.code == 200 })
        #expect(Set(answers.map(\.body)).count == 1)
        #expect(
            await fixture.metricsText().contains(
                #"tokenswap_refresh_replays_total{provider="spotify",reason="in_flight"} 2"#))
    }

    /// A claimant whose call never ends (it died) holds the key for the upstream deadline
    /// and a margin only: then the waiter takes the claim and calls the provider itself.
    @Test func aWaiterTakesOverFromAClaimantThatNeverAnswers() async throws {
        let upstream = HeldUpstream(RecordingUpstream.json(200, Self.tokens))
        let fixture = try Fixture(upstream)
        let sealed = try F.seal("raw-3", keys: F.newKey, provider: fixture.provider)
        let collected = CollectedAnswers()
        for _ in 0..<2 {
            fixture.service.refresh(
                Self.form(sealed), provider: fixture.provider, completion: collected.record)
        }
        #expect(upstream.callCount == 1)
        // The waiter's timer is set for the claim's lapse: upstream deadline plus margin.
        let lapse = Deadline.after(
            seconds: 2 + ReplayWindow.replayMarginSeconds, from: fixture.clock.now)
        #expect(fixture.timers.deadlines == [lapse])
        fixture.clock.advance(seconds: 4)
        fixture.timers.fireDue(at: fixture.clock.now)
        #expect(upstream.callCount == 2)
        upstream.release()
        #expect(collected.all.map(\.status.code) == [200, 200])
    }

    static func form(_ sealed: String) -> HTTPRequest {
        F.form("refresh_token=\(sealed)", path: "/v1/refresh")
    }

    /// Single flight shares whatever the call in flight answered (CONTRACT §12): the
    /// waiters get the same 429 (with its Retry-After), 502 or 504, and nothing is kept.
    @Test(
        arguments: [
            RecordingUpstream.json(429, "busy", headers: [("Retry-After", "7")]),
            RecordingUpstream.json(503, "down"),
            .failure(.timeout(.exchange)),
            .failure(.unreachable(reason: "connect: ECONNREFUSED")),
        ])
    func waitersGetTheTransientAnswerOfTheCallInFlight(_ answer: RecordingUpstream.Answer)
        async throws
    {
        let upstream = HeldUpstream(answer)
        let fixture = try Fixture(upstream)
        let sealed = try F.seal("raw-t", keys: F.newKey, provider: fixture.provider)
        let collected = CollectedAnswers()
        for _ in 0..<3 {
            fixture.service.refresh(
                Self.form(sealed), provider: fixture.provider, completion: collected.record)
        }
        upstream.release()
        let answers = collected.all
        #expect(answers.count == 3)
        #expect(upstream.callCount == 1)
        let first = try #require(answers.first)
        #expect(first.status.code != 200)
        for other in answers.dropFirst() {
            #expect(other.status.code == first.status.code)
            #expect(other.body == first.body)
            #expect(other.headers["Retry-After"] == first.headers["Retry-After"])
            GrantErrorTests.expectTokenHeaders(other)
        }
        // Nothing kept: the next request calls the provider again.
        #expect(fixture.store.replayCount == 0)
        fixture.service.refresh(
            Self.form(sealed), provider: fixture.provider, completion: collected.record)
        #expect(upstream.callCount == 2)
    }

    /// CONTRACT §12: a copy holds at most so many requests waiting on one token (256 by
    /// default; 2 here); one more is answered at once `503 temporarily_unavailable` with
    /// `Retry-After: 1`, with no provider call, and the waiters still get the answer.
    @Test func aRequestBeyondTheWaitersOfOneTokenIsAnswered503WithRetryAfter1() async throws {
        let upstream = HeldUpstream(RecordingUpstream.json(200, Self.tokens))
        let clock = Clock()
        let store = MemoryStateStore(
            replayCapacity: 100, shardCount: 1, maxWaitersPerKey: 2, clock: { clock.now },
            timers: Timers().timers)
        let fixture = try Fixture(upstream, store: store)
        let sealed = try F.seal("raw-crowd", keys: F.newKey, provider: fixture.provider)
        let collected = CollectedAnswers()
        for _ in 0..<4 {
            fixture.service.refresh(
                Self.form(sealed), provider: fixture.provider, completion: collected.record)
        }
        #expect(upstream.callCount == 1)
        let refused = try #require(collected.all.first)
        #expect(collected.all.count == 1)
        #expect(refused.status.code == 503)
        #expect(refused.headers["Retry-After"] == "1")
        #expect(try F.body(refused)["error"] == .string("temporarily_unavailable"))
        GrantErrorTests.expectTokenHeaders(refused)
        upstream.release()
        let answers = collected.all
        #expect(answers.count == 4)
        #expect(answers.dropFirst().allSatisfy { $0.status.code == 200 })
        #expect(upstream.callCount == 1)
    }

    @Test func invalidGrantIsKept() async throws {
        let refusal = #"{"error":"invalid_grant","error_description":"Refresh token revoked"}"#
        let upstream = RecordingUpstream(
            RecordingUpstream.json(400, refusal), RecordingUpstream.json(200, Self.tokens))
        let fixture = try Fixture(upstream)
        let sealed = try F.seal("raw-4", keys: F.newKey, provider: fixture.provider)
        for _ in 0..<3 {
            let answer = await fixture.refresh(sealed)
            #expect(answer.status.code == 400)
            #expect(String(decoding: answer.body, as: UTF8.self) == refusal)
            GrantErrorTests.expectTokenHeaders(answer)
        }
        #expect(upstream.requests.count == 1)
    }

    /// Nothing but a 200 and a 400 invalid_grant is kept: after each of these, the next
    /// request calls the provider again.
    @Test(
        arguments: [
            RecordingUpstream.json(429, "busy", headers: [("Retry-After", "3")]),
            RecordingUpstream.json(503, "down"),
            RecordingUpstream.json(500, "oops"),
            RecordingUpstream.json(200, "not json"),
            RecordingUpstream.json(400, #"{"error":"invalid_request"}"#),
            RecordingUpstream.json(401, #"{"error":"invalid_client"}"#),
            .failure(.unreachable(reason: "connect: ECONNREFUSED")),
            .failure(.timeout(.exchange)),
            .failure(.poolExhausted),
        ])
    func transientAndOtherAnswersAreNotKept(_ answer: RecordingUpstream.Answer) async throws {
        let upstream = RecordingUpstream(answer, RecordingUpstream.json(200, Self.tokens))
        let fixture = try Fixture(upstream)
        let sealed = try F.seal("raw-5", keys: F.newKey, provider: fixture.provider)
        let first = await fixture.refresh(sealed)
        #expect(first.status.code != 200)
        #expect(await fixture.refresh(sealed).status.code == 200)
        #expect(upstream.requests.count == 2)
        #expect(fixture.store.replayCount == 1)
    }

    @Test func aWindowOfZeroIsTheOldBehaviour() async throws {
        let upstream = RecordingUpstream(
            RecordingUpstream.json(200, Self.tokens),
            RecordingUpstream.json(400, #"{"error":"invalid_grant"}"#))
        let fixture = try Fixture(upstream, replaySeconds: 0)
        let sealed = try F.seal("raw-6", keys: F.newKey, provider: fixture.provider)
        #expect(await fixture.refresh(sealed).status.code == 200)
        #expect(await fixture.refresh(sealed).status.code == 400)
        #expect(upstream.requests.count == 2)
        #expect(fixture.store.replayCount == 0)
        #expect(!(await fixture.metricsText()).contains("tokenswap_refresh_replay"))
    }

    @Test func aKeptAnswerWhoseKeyLeftTheRingCountsAbsent() async throws {
        let first = "k1:" + String(repeating: "A", count: 43)
        let shared = "k2:" + String(repeating: "B", count: 42) + "A"
        let later = "k3:" + String(repeating: "C", count: 42) + "A"
        let upstream = RecordingUpstream(
            RecordingUpstream.json(200, Self.tokens), RecordingUpstream.json(200, Self.tokens))
        // One store, two rings: the kept answer is sealed under k1, the token under k2.
        let before = try Fixture(upstream, keys: first + "," + shared)
        let after = try Fixture(upstream, keys: later + "," + shared, store: before.store)
        let sealed = try F.seal("raw-7", keys: shared, provider: before.provider)
        #expect(await before.refresh(sealed).status.code == 200)
        #expect(await before.refresh(sealed).status.code == 200)
        #expect(upstream.requests.count == 1)
        // k1 left the ring: the token still opens, its kept answer does not.
        #expect(await after.refresh(sealed).status.code == 200)
        #expect(upstream.requests.count == 2)
    }

    /// A token the ring opened is keyed by its authenticated parts (`SealIdentity`), a
    /// legacy one by its text; the answer is kept as sealed bytes (not base64url text). One
    /// an earlier version kept (as text, or in the first layout, which did not remember the
    /// key that proved it: a shared store in mid-upgrade) counts as absent: the repeat
    /// calls the provider.
    @Test func aKeptAnswerIsSealedBytesUnderTheTokensIdentity() async throws {
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.tokens))
        let fixture = try Fixture(upstream)
        let sealed = try F.seal("raw-1", keys: F.newKey, provider: fixture.provider)
        #expect(await fixture.refresh(sealed).status.code == 200)
        let identity = try #require(
            try F.open(sealed, keys: F.newKey, provider: fixture.provider).sealIdentity)
        let key = try #require(StateKey(.refresh, scope: "spotify", seal: identity))
        let answers = MemoryStateStoreTests.Answers<RefreshClaim>()
        fixture.store.claim(key, inFlightFor: .seconds(1), completion: answers.record)
        guard case .kept(let kept, _)? = answers.last else {
            Issue.record("nothing kept under the token's identity")
            return
        }
        #expect(kept.first == 0x01)
        let context = SealingContext(provider: "spotify", clientID: "client-1", kind: .keptAnswer)
        let ring = try KeyRing(parsing: F.newKey)
        #expect(
            KeptAnswer(
                plaintext: try ring.open(sealedBytes: kept, context: context).plaintext,
                boundTo: key)?.status == 200)
        // Not under the text's digest.
        let byText = try #require(StateKey(.refresh, scope: "spotify", value: sealed))
        let textAnswers = MemoryStateStoreTests.Answers<RefreshClaim>()
        fixture.store.claim(byText, inFlightFor: .seconds(1), completion: textAnswers.record)
        #expect(textAnswers.last == .claimed)

        // Kept answers as earlier versions wrote them, in the first plaintext layout (no
        // prover): as base64url text, and as sealed bytes.
        for (index, asText) in [true, false].enumerated() {
            let other = try F.seal("raw-\(index + 2)", keys: F.newKey, provider: fixture.provider)
            let otherIdentity = try #require(
                try F.open(other, keys: F.newKey, provider: fixture.provider).sealIdentity)
            let otherKey = try #require(StateKey(.refresh, scope: "spotify", seal: otherIdentity))
            var firstLayout = KeptAnswer(
                status: 200, body: Array(Self.tokens.utf8), provedBy: nil
            ).plaintext(boundTo: otherKey)
            firstLayout.removeSubrange(33..<66)
            firstLayout[0] = 1
            let earlier: [UInt8] =
                asText
                ? Array(try ring.sealWithoutGrant(firstLayout, context: context).utf8)
                : try ring.sealWithoutGrant(byteCount: firstLayout.count, context: context) {
                    $0.copyBytes(from: firstLayout)
                }
            fixture.store.settle(otherKey, answer: earlier, keepFor: .seconds(60)) { _ in }
            let calls = upstream.requests.count
            #expect(await fixture.refresh(other).status.code == 502)  // called: nothing scripted
            #expect(upstream.requests.count == calls + 1)
        }
    }

    @Test func aKeptAnswerIsBoundToItsRequest() throws {
        let ring = try KeyRing(parsing: F.newKey)
        let context = SealingContext(provider: "spotify", clientID: "client-1", kind: .keptAnswer)
        let key = try #require(StateKey(.refresh, scope: "spotify", value: "T"))
        let other = try #require(StateKey(.refresh, scope: "spotify", value: "U"))
        let kept = KeptAnswer(status: 200, body: Array(Self.tokens.utf8), provedBy: nil)
        let plaintext = kept.plaintext(boundTo: key)
        #expect(KeptAnswer(plaintext: plaintext, boundTo: key) == kept)
        #expect(KeptAnswer(plaintext: plaintext, boundTo: other) == nil)
        var wrongVersion = plaintext
        wrongVersion[0] = 1
        #expect(KeptAnswer(plaintext: wrongVersion, boundTo: key) == nil)
        #expect(KeptAnswer(plaintext: Array(plaintext.prefix(20)), boundTo: key) == nil)
        var noStatus = plaintext
        noStatus[66] = 0x00
        noStatus[67] = 0x64  // 100: not an answer a request ends with
        #expect(KeptAnswer(plaintext: noStatus, boundTo: key) == nil)
        var badFlag = plaintext
        badFlag[33] = 2
        #expect(KeptAnswer(plaintext: badFlag, boundTo: key) == nil)
        let throttled = KeptAnswer(
            status: 429, retryAfterSeconds: 7, body: [0x7B, 0x7D], provedBy: nil)
        #expect(
            KeptAnswer(plaintext: throttled.plaintext(boundTo: key), boundTo: key) == throttled)
        // The key that proved the request is kept with the answer, and only it matches.
        let a = [UInt8](repeating: 0xA1, count: 32)
        let b = [UInt8](repeating: 0xB2, count: 32)
        let proved = KeptAnswer(status: 200, body: Array(Self.tokens.utf8), provedBy: a)
        let reopened = try #require(
            KeptAnswer(plaintext: proved.plaintext(boundTo: key), boundTo: key))
        #expect(reopened == proved)
        #expect(reopened.isFor(prover: a))
        #expect(!reopened.isFor(prover: b) && !reopened.isFor(prover: nil))
        #expect(kept.isFor(prover: nil) && !kept.isFor(prover: a))
        // Its own kind: it never opens as a refresh token, and a refresh token never as it.
        let sealed = try ring.seal(plaintext, context: context)
        var asRefresh = context
        asRefresh.kind = .refreshToken
        #expect(throws: SealingError.invalidToken) { try ring.open(sealed, context: asRefresh) }
        let token = try ring.seal("raw", context: asRefresh)
        #expect(throws: SealingError.invalidToken) { try ring.open(token, context: context) }
        // Large enough for a response of JWTs, which a refresh token may not be.
        let large = [UInt8](repeating: 0x61, count: 20_000)
        #expect(
            try ring.open(try ring.seal(large, context: context), context: context).plaintext
                == large)
        #expect(throws: SealingError.plaintextTooLong) { try ring.seal(large, context: asRefresh) }
    }

    @Test func evictionAtTheBoundIsCountedAndTheEvictedTokenCallsAgain() async throws {
        let upstream = RecordingUpstream(
            RecordingUpstream.json(200, Self.tokens), RecordingUpstream.json(200, Self.tokens),
            RecordingUpstream.json(200, Self.tokens), RecordingUpstream.json(200, Self.tokens))
        let fixture = try Fixture(upstream, capacity: 2)
        let sealed = try (1...3).map {
            try F.seal("raw-e\($0)", keys: F.newKey, provider: fixture.provider)
        }
        for token in sealed { #expect(await fixture.refresh(token).status.code == 200) }
        #expect(fixture.store.replayCount == 2)
        #expect(await fixture.metricsText().contains("tokenswap_refresh_replay_evictions_total 1"))
        // The newest two replay; the oldest was evicted and calls the provider again.
        #expect(await fixture.refresh(sealed[2]).status.code == 200)
        #expect(upstream.requests.count == 3)
        #expect(await fixture.refresh(sealed[0]).status.code == 200)
        #expect(upstream.requests.count == 4)
    }

    @Test func swapsAreNeverReplayed() async throws {
        let upstream = RecordingUpstream(
            RecordingUpstream.json(200, Self.tokens),
            RecordingUpstream.json(400, #"{"error":"invalid_grant"}"#))
        let fixture = try Fixture(upstream)
        for status in [200, 400] {
            let answer = await fixture.service.answer {
                $0.swap(F.form("code=code-1"), provider: fixture.provider, completion: $1)
            }.response
            #expect(answer.status.code == status)
        }
        #expect(upstream.requests.count == 2)
        #expect(fixture.store.replayCount == 0)
    }

    @Test func theTokenEndpointsRefreshGrantReplaysAcrossPaths() async throws {
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.tokens))
        let fixture = try Fixture(upstream)
        let sealed = try F.seal("raw-8", keys: F.newKey, provider: fixture.provider)
        let viaToken = await fixture.service.answer {
            $0.token(
                F.form("grant_type=refresh_token&refresh_token=\(sealed)", path: "/v1/token"),
                provider: fixture.provider,
                context: ServiceContext(requestID: "test-request", routePath: "/v1/token"),
                completion: $1)
        }.response
        #expect(viaToken.status.code == 200)
        // The same sealed token at the refresh endpoint: the same answer, no second call.
        let viaRefresh = await fixture.refresh(sealed, path: "/refresh")
        #expect(viaRefresh.body == viaToken.body)
        #expect(upstream.requests.count == 1)
    }

    @Test func aTokenThatDoesNotOpenIsRefusedBeforeTheStore() async throws {
        let upstream = RecordingUpstream()
        let fixture = try Fixture(upstream)
        for _ in 0..<2 {
            let answer = await fixture.refresh("not-a-sealed-token")
            #expect(answer.status.code == 400)
        }
        #expect(fixture.store.replayCount == 0)
        #expect(upstream.requests.isEmpty)
    }

    @Test func noTokenReachesTheLogs() async throws {
        let upstream = RecordingUpstream(
            RecordingUpstream.json(200, Self.tokens),
            .failure(.unreachable(reason: "connect: ECONNREFUSED")))
        let fixture = try Fixture(upstream)
        let sealed = try F.seal("raw-secret-9", keys: F.newKey, provider: fixture.provider)
        let answer = await fixture.refresh(sealed)
        _ = await fixture.refresh(sealed)
        let rotated = try #require(try F.body(answer)["refresh_token"]?.stringValue)
        let text = fixture.logs.all.joined(separator: "\n")
        for secret in [sealed, rotated, "raw-secret-9", "access-1", "raw-rotated"] {
            #expect(!text.contains(secret))
        }
    }
}
