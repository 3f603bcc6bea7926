import Foundation
import Testing

/// The retry-safe refresh (CONTRACT §12) through the real binary against the provider stub,
/// which records every call: a repeat within the window makes no provider call and gets the
/// same answer with `expires_in` counted down; concurrent refreshes of one token make one
/// call; only a `200` and a `400 invalid_grant` are kept; `0` turns it off; the table is
/// bounded; swaps never replay; no token reaches the output.
@Suite(.serialized, .resourceClass(.processes)) struct RefreshReplayTests {
    static let rotated = "stub-rotated-refresh-value"

    /// A stack whose stub answers a rotating-looking token response, and a sealed token.
    static func stack(extra: [String: String] = [:]) async throws -> (StubStack, String) {
        let stack = try await StubStack.start(extra: extra)
        try await stack.stub.answerTokens([
            "access_token": "stub-access-value", "token_type": "Bearer", "expires_in": 3600,
            "refresh_token": rotated, "scope": "user-read",
        ])
        let swap = try await Exchange.form("/v1/swap", port: stack.port, [("code", "code-r")])
        #expect(swap.status == 200)
        return (stack, try #require(swap.string("refresh_token")))
    }

    /// The stub's calls with `grant_type=refresh_token`.
    static func refreshCalls(_ stub: ProviderStub) async throws -> Int {
        try await stub.received().filter { $0.body.contains("grant_type=refresh_token") }.count
    }

    static func refresh(_ port: UInt16, _ sealed: String, path: String = "/v1/refresh")
        async throws -> Exchange.Answer
    {
        try await Exchange.form(path, port: port, [("refresh_token", sealed)])
    }

    @Test func aRepeatOnEveryPathGetsTheSameAnswerWithoutAProviderCall() async throws {
        let (stack, sealed) = try await Self.stack()
        let first = try await Self.refresh(stack.port, sealed)
        #expect(first.status == 200)
        try await DeviceFlow.wait(seconds: 1)
        // The provider would now refuse the spent token; nobody asks it.
        try await stack.stub.answer(status: 400, body: #"{"error":"invalid_grant"}"#)
        var answers = [first]
        for path in ["/refresh", "/v1/spotify/refresh"] {
            answers.append(try await Self.refresh(stack.port, sealed, path: path))
        }
        for path in ["/v1/token", "/v1/spotify/token"] {
            answers.append(
                try await Exchange.form(
                    path, port: stack.port,
                    [("grant_type", "refresh_token"), ("refresh_token", sealed)]))
        }
        #expect(try await Self.refreshCalls(stack.stub) == 1)
        for answer in answers {
            #expect(answer.status == 200)
            #expect(answer.header("Cache-Control") == "no-store")
            #expect(answer.string("access_token") == first.string("access_token"))
            #expect(answer.string("refresh_token") == first.string("refresh_token"))
            #expect(answer.string("scope") == "user-read")
        }
        let later = try #require(answers.last?.json?["expires_in"] as? Int)
        #expect((3590...3599).contains(later), "\(later)")
        let metrics = try await Exchange.request("GET", "/metrics", port: stack.port)
        #expect(
            metrics.body.contains(
                #"tokenswap_refresh_replays_total{provider="spotify",reason="window"} 4"#))
        let rotatedSealed = try #require(first.string("refresh_token"))
        #expect(
            try await stack.finish(secrets: [
                sealed, rotatedSealed, Self.rotated, "stub-access-value", "code-r",
            ]) == 0)
    }

    @Test func threeConcurrentRefreshesMakeOneProviderCall() async throws {
        let (stack, sealed) = try await Self.stack()
        try await stack.stub.answer(
            body:
                #"{"access_token":"stub-access-slow","token_type":"Bearer","expires_in":3600,"refresh_token":"stub-rotated-slow"}"#,
            mode: "slow", delayMilliseconds: 800)
        let port = stack.port
        let answers = try await withThrowingTaskGroup(of: Exchange.Answer.self) { group in
            for _ in 0..<3 { group.addTask { try await Self.refresh(port, sealed) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.map(\.status) == [200, 200, 200])
        #expect(Set(answers.map(\.body)).count == 1)
        #expect(try await Self.refreshCalls(stack.stub) == 1)
        let metrics = try await Exchange.request("GET", "/metrics", port: stack.port)
        #expect(
            metrics.body.contains(
                #"tokenswap_refresh_replays_total{provider="spotify",reason="in_flight"} 2"#))
        let rotatedSealed = try #require(answers.first?.string("refresh_token"))
        #expect(
            try await stack.finish(secrets: [sealed, rotatedSealed, "stub-rotated-slow"]) == 0)
    }

    /// Concurrent refreshes behind a provider slower than the deadline: one call, and every
    /// request gets its 504 when it does, not one after another (nothing is kept).
    @Test func concurrentRefreshesShareATimeoutAndNothingIsKept() async throws {
        let (stack, sealed) = try await Self.stack(extra: [
            "TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS": "3"
        ])
        try await stack.stub.answer(
            body: #"{"access_token":"late","token_type":"Bearer"}"#, mode: "slow",
            delayMilliseconds: 30000)
        let port = stack.port
        let start = ContinuousClock.now
        let answers = try await withThrowingTaskGroup(of: Exchange.Answer.self) { group in
            for _ in 0..<3 { group.addTask { try await Self.refresh(port, sealed) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Together about 3 s; one after another they would take 9 (a loaded machine has
        // the 4.5 s between).
        #expect(ContinuousClock.now - start < .milliseconds(7500))
        #expect(answers.map(\.status) == [504, 504, 504])
        #expect(answers.allSatisfy { $0.error == "upstream_timeout" })
        #expect(try await Self.refreshCalls(stack.stub) == 1)
        try await stack.stub.answerTokens(["access_token": "now", "token_type": "Bearer"])
        #expect(try await Self.refresh(stack.port, sealed).status == 200)
        #expect(try await Self.refreshCalls(stack.stub) == 2)
        #expect(try await stack.finish(secrets: [sealed]) == 0)
    }

    @Test func invalidGrantIsKept() async throws {
        let (stack, sealed) = try await Self.stack()
        let refusal = #"{"error":"invalid_grant","error_description":"Refresh token revoked"}"#
        try await stack.stub.answer(status: 400, body: refusal)
        #expect(try await Self.refresh(stack.port, sealed).body == refusal)
        try await stack.stub.answerTokens(["access_token": "late", "token_type": "Bearer"])
        let again = try await Self.refresh(stack.port, sealed)
        #expect(again.status == 400)
        #expect(again.body == refusal)
        #expect(try await Self.refreshCalls(stack.stub) == 1)
        #expect(try await stack.finish(secrets: [sealed]) == 0)
    }

    /// A 429, a 5xx and a timeout are transient: the next request calls the provider again.
    @Test(
        arguments: [
            (429, "busy", "normal", 0, 429), (503, "{}", "normal", 0, 502),
            (200, #"{"access_token":"late"}"#, "slow", 3000, 504),
        ] as [(Int, String, String, Int, Int)])
    func transientAnswersAreNotKept(
        status: Int, body: String, mode: String, delay: Int, expected: Int
    ) async throws {
        let (stack, sealed) = try await Self.stack(extra: [
            "TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS": "1"
        ])
        try await stack.stub.answer(
            status: status, headers: status == 429 ? [("Retry-After", "3")] : [], body: body,
            mode: mode, delayMilliseconds: delay)
        #expect(try await Self.refresh(stack.port, sealed).status == expected)
        try await stack.stub.answerTokens([
            "access_token": "stub-access-after", "token_type": "Bearer", "expires_in": 3600,
        ])
        let after = try await Self.refresh(stack.port, sealed)
        #expect(after.status == 200)
        #expect(after.string("access_token") == "stub-access-after")
        #expect(try await Self.refreshCalls(stack.stub) == 2)
        #expect(try await stack.finish(secrets: [sealed, "stub-access-after"]) == 0)
    }

    @Test func aWindowOfZeroCallsTheProviderEveryTime() async throws {
        let (stack, sealed) = try await Self.stack(extra: [
            "TOKENSWAP_REFRESH_REPLAY_SECONDS": "0"
        ])
        for _ in 0..<2 { #expect(try await Self.refresh(stack.port, sealed).status == 200) }
        #expect(try await Self.refreshCalls(stack.stub) == 2)
        let metrics = try await Exchange.request("GET", "/metrics", port: stack.port)
        #expect(!metrics.body.contains("tokenswap_refresh_replay"))
        #expect(try await stack.finish(secrets: [sealed]) == 0)
    }

    @Test func theTableHoldsAtMostItsEntriesAndEvictsTheOldest() async throws {
        let (stack, first) = try await Self.stack(extra: [
            "TOKENSWAP_REFRESH_REPLAY_MAX_ENTRIES": "1"
        ])
        let swap = try await Exchange.form("/v1/swap", port: stack.port, [("code", "code-2")])
        let second = try #require(swap.string("refresh_token"))
        #expect(try await Self.refresh(stack.port, first).status == 200)
        #expect(try await Self.refresh(stack.port, second).status == 200)
        #expect(try await Self.refresh(stack.port, second).status == 200)
        #expect(try await Self.refreshCalls(stack.stub) == 2)
        // The first token's answer was evicted by the second's: it calls again.
        #expect(try await Self.refresh(stack.port, first).status == 200)
        #expect(try await Self.refreshCalls(stack.stub) == 3)
        let metrics = try await Exchange.request("GET", "/metrics", port: stack.port)
        #expect(metrics.body.contains("tokenswap_refresh_replay_evictions_total 2"))
        #expect(try await stack.finish(secrets: [first, second]) == 0)
    }

    @Test func swapsAreNeverReplayed() async throws {
        let (stack, _) = try await Self.stack()
        for _ in 0..<2 {
            #expect(
                try await Exchange.form("/v1/swap", port: stack.port, [("code", "code-s")]).status
                    == 200)
        }
        let swaps = try await stack.stub.received().filter {
            $0.body.contains("grant_type=authorization_code")
        }
        #expect(swaps.count == 3)
        #expect(try await stack.finish(secrets: ["code-s"]) == 0)
    }

    /// A legacy token (CONTRACT §9) replays as a native one; its repeats give back the
    /// failure allowance they took, as its first refresh did, and it is counted once.
    @Test func aLegacyTokenReplaysAndIsCountedOnce() async throws {
        let (stack, files) = try await LegacyProbingTests.start(extra: [
            "TOKENSWAP_LEGACY_FAILURE_LIMIT": "1"
        ])
        defer { files.remove() }
        let raw = "legacy-refresh-" + Deployment.random(20)
        let token = try await LegacyMigrationTests.legacyToken(
            LegacyProbingTests.format, secret: try LegacyProbingTests.secret(files),
            plaintext: raw)
        try await stack.stub.answerTokens([
            "access_token": "at-legacy-replay", "token_type": "Bearer", "expires_in": 3600,
        ])
        var bodies: Set<String> = []
        var sealed = ""
        for _ in 0..<3 {
            let answer = try await Self.refresh(stack.port, token)
            #expect(answer.status == 200, "\(answer)")
            bodies.insert(answer.body)
            sealed = answer.string("refresh_token") ?? ""
        }
        #expect(bodies.count == 1)
        #expect(try await Self.refreshCalls(stack.stub) == 1)
        // The allowance of one failure is whole: a token that opens nowhere is still 400.
        #expect(try await Self.refresh(stack.port, "zz-not-hex").status == 400)
        let metrics = try await OperationsTests.scrape(stack.port)
        #expect(
            metrics.contains(
                #"tokenswap_legacy_tokens_opened_total{provider="spotify",format="node-create-cipher-ctr"} 1"#
            ))
        #expect(try await stack.finish(secrets: [token, raw, sealed, "at-legacy-replay"]) == 0)
    }

    @Test func aReplayWindowAboveTenMinutesStopsStartUp() async throws {
        let result = try await TokenSwapProcess.run(
            ["check-config"],
            environment: Deployment().environment(
                tokenURL: "http://127.0.0.1:1/token", keys: Deployment.newKey("A"),
                extra: ["TOKENSWAP_REFRESH_REPLAY_SECONDS": "601"]))
        #expect(result.status != 0)
        #expect(
            (result.stdout + result.stderr).contains(
                "TOKENSWAP_REFRESH_REPLAY_SECONDS: expected seconds, 0 (off) or 1 to 600"))
    }
}
