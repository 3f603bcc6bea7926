import Foundation
import TestSupport
import Testing

/// Two `tokenswap` copies sharing one real `redis-server` of the test's own (CONTRACT §12
/// "Shared state" and "When the store fails"): limits count across copies, a refresh
/// answered on one copy is replayed on the other, and when the store dies each copy keeps
/// answering (open) or refuses what needs it (closed), and both recover by themselves
/// when it is back, with one warning line each way.
@Suite(.resourceClass(.processes)) struct SharedStateTests {
    static func state(_ redis: RedisServer, _ extra: [String: String] = [:]) -> [String: String] {
        // A store call slower than the default 100 ms counts as the store failing, and a
        // copy that falls back to its memory answers differently; a loaded CI machine can
        // stall that long, so these tests give the store seconds (a killed store still
        // fails at once: its port refuses).
        [
            "TOKENSWAP_STATE_URL": "\(redis.url)/0",
            "TOKENSWAP_STATE_TIMEOUT_MS": "5000",
        ].merging(extra) { $1 }
    }

    /// Two copies in front of one provider stub, with one key ring and one store.
    static func copies(_ redis: RedisServer, _ extra: [String: String] = [:]) async throws
        -> (StubStack, TokenSwapProcess)
    {
        let first = try await StubStack.start(extra: state(redis, extra))
        let second = try await TokenSwapProcess.serve(
            environment: first.deployment.environment(
                tokenURL: first.stub.tokenURL(), keys: first.keys, extra: state(redis, extra)))
        return (first, second)
    }

    static func swap(_ port: UInt16, forwardedFor: String = "198.51.100.1") async throws -> Int {
        try await OperationsTests.swap(port, forwardedFor: forwardedFor)
    }

    @Test func theRateLimitCountsAcrossCopies() async throws {
        let redis = try await RedisServer.start()
        let (a, b) = try await Self.copies(redis, RateLimitPrefixTests.limit)
        var statuses: [Int] = []
        for index in 0..<6 {
            statuses.append(try await Self.swap(index % 2 == 0 ? a.port : b.port))
        }
        // Burst 2 for the one client over both copies (not 2 per copy).
        #expect(statuses.filter { $0 != 429 }.count == 2, "\(statuses)")
        #expect(statuses.dropFirst(2).allSatisfy { $0 == 429 }, "\(statuses)")
        #expect(try await Self.swap(b.port, forwardedFor: "198.51.100.2") != 429)
        #expect(try await b.stop() == 0)
        #expect(try await a.finish(secrets: []) == 0)
    }

    @Test func aRefreshAnsweredOnOneCopyIsReplayedOnTheOtherWithAPasswordedStore() async throws {
        let redis = try await RedisServer.start(["--requirepass", "store-pass-e2e"])
        let (a, b) = try await Self.copies(redis, ["TOKENSWAP_STATE_PASSWORD": "store-pass-e2e"])
        let swap = try await Exchange.form("/v1/swap", port: a.port, [("code", "code-shared")])
        #expect(swap.status == 200)
        let sealed = try #require(swap.string("refresh_token"))
        let first = try await Exchange.form(
            "/v1/refresh", port: a.port, [("refresh_token", sealed)])
        #expect(first.status == 200)
        let again = try await Exchange.form(
            "/v1/refresh", port: b.port, [("refresh_token", sealed)])
        #expect(again.status == 200)
        #expect(again.string("access_token") == first.string("access_token"))
        let refreshes = try await a.stub.received().filter {
            $0.form["grant_type"] == "refresh_token"
        }
        #expect(refreshes.count == 1)
        #expect(try await b.stop() == 0)
        #expect(!b.output.contains("store-pass-e2e"))
        #expect(try await a.finish(secrets: ["store-pass-e2e", sealed]) == 0)
    }

    /// CONTRACT §7 and §12: a poll too soon after one on the other copy is `slow_down`
    /// there too, answered without asking the provider, and the raised interval holds on
    /// both copies.
    ///
    /// A stalled attempt (`DeviceFlow.pollTwiceAtOnce`) reaches b's own sandbox, which
    /// does not know the code, and a new code tries again.
    @Test func aDeviceSlowDownHoldsOnTheOtherCopy() async throws {
        let redis = try await RedisServer.start()
        let environment = Self.state(redis, ["TOKENSWAP_ENCRYPTION_KEYS": Deployment.newKey("A")])
        let a = try await TokenSwapProcess.serve(["--sandbox"], environment: environment)
        let b = try await TokenSwapProcess.serve(["--sandbox"], environment: environment)
        var shown = false
        // What b answered itself, and how often it asked its own sandbox (only a stalled
        // attempt's poll in time does: that sandbox does not know the code and refuses it).
        var slowDownsOnB = 0
        var askedByB = 0
        for _ in 0..<5 where !shown {
            let (sealed, first, second, quick) = try await DeviceFlow.pollTwiceAtOnce(
                code: a.port, first: a.port, second: b.port)
            if second.error == "slow_down" { slowDownsOnB += 1 } else { askedByB += 1 }
            guard quick else { continue }
            shown = true
            #expect(first.error == "authorization_pending")
            #expect(second.error == "slow_down")
            #expect(DeviceFlow.interval(second) == 6)
            let third = try await DeviceFlow.poll(a.port, deviceCode: sealed)
            #expect(DeviceFlow.interval(third) == 11)
        }
        #expect(shown, "five attempts each took a second or more for two polls")
        let local = #"tokenswap_device_polls_total{provider="spotify",outcome="slow_down_local"}"#
        #expect(try await DeviceFlow.metric(b.port, local) == Double(slowDownsOnB))
        let upstream = #"tokenswap_upstream_requests_total{provider="spotify",outcome="#
        #expect(
            try await DeviceFlow.metric(b.port, upstream + #""provider_error"}"#)
                == Double(askedByB),
            "b asked its provider for no poll too soon")
        #expect(try await DeviceFlow.metric(b.port, upstream + #""ok"}"#) == 0)
        #expect(try await a.stop() == 0)
        #expect(try await b.stop() == 0)
    }

    @Test func openModeKeepsAnsweringWithoutTheStoreAndRecoversWithOneLineEachWay()
        async throws
    {
        let redis = try await RedisServer.start()
        let (a, b) = try await Self.copies(redis, RateLimitPrefixTests.limit)
        #expect(try await Self.swap(a.port) == 200)
        redis.kill()
        // Each copy answers from its own memory: limits per copy, never a 5xx.
        var statuses: [Int] = []
        for index in 0..<8 {
            statuses.append(
                try await Self.swap(index % 2 == 0 ? a.port : b.port, forwardedFor: "203.0.113.9"))
        }
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 429 }, "\(statuses)")
        #expect(statuses.filter { $0 == 200 }.count == 4, "\(statuses)")  // burst 2 per copy
        let ready = try await Exchange.request("GET", "/readyz", port: a.port)
        #expect(ready.status == 200)
        let down = try await OperationsTests.scrape(a.port)
        #expect(down.contains("\ntokenswap_state_store_up 0.0"))
        try await redis.restart()
        try await pollUntil(every: .milliseconds(100), within: .seconds(10)) {
            try await OperationsTests.scrape(a.port).contains("\ntokenswap_state_store_up 1.0")
        }
        try await pollUntil(every: .milliseconds(100), within: .seconds(10)) {
            try await OperationsTests.scrape(b.port).contains("\ntokenswap_state_store_up 1.0")
        }
        // Shared again: a fresh client's burst counts over both copies.
        var after: [Int] = []
        for index in 0..<4 {
            after.append(
                try await Self.swap(index % 2 == 0 ? a.port : b.port, forwardedFor: "203.0.113.10"))
        }
        #expect(after == [200, 200, 429, 429], "\(after)")
        #expect(try await b.stop() == 0)
        for output in [a.server.output, b.output] {
            #expect(Self.count("state store is unreachable", in: output) == 1, "\(output)")
            #expect(Self.count("state store is back", in: output) == 1, "\(output)")
        }
        #expect(try await a.finish(secrets: []) == 0)
    }

    @Test func closedModeAnswers503WithRetryAfterAndIsNotReadyUntilTheStoreIsBack()
        async throws
    {
        let redis = try await RedisServer.start()
        let (a, b) = try await Self.copies(redis, ["TOKENSWAP_STATE_FAILURE": "closed"])
        let swap = try await Exchange.form("/v1/swap", port: a.port, [("code", "code-closed")])
        let sealed = try #require(swap.string("refresh_token"))
        redis.kill()
        for port in [a.port, b.port] {
            let refused = try await Exchange.form(
                "/v1/refresh", port: port, [("refresh_token", sealed)])
            #expect(refused.status == 503)
            #expect(refused.string("error") == "temporarily_unavailable")
            #expect(refused.header("Retry-After") == "1")
        }
        try await pollUntil(every: .milliseconds(100), within: .seconds(10)) {
            try await Exchange.request("GET", "/readyz", port: b.port).status == 503
        }
        let notReady = try await Exchange.request("GET", "/readyz", port: a.port)
        #expect(notReady.status == 503)
        #expect(notReady.header("Retry-After") == "1")
        // No provider call was made for the refused refreshes.
        #expect(
            try await a.stub.received().filter { $0.form["grant_type"] == "refresh_token" }.isEmpty)
        try await redis.restart()
        for port in [a.port, b.port] {
            try await pollUntil(every: .milliseconds(100), within: .seconds(10)) {
                try await Exchange.request("GET", "/readyz", port: port).status == 200
            }
        }
        let served = try await Exchange.form(
            "/v1/refresh", port: b.port, [("refresh_token", sealed)])
        #expect(served.status == 200)
        #expect(try await b.stop() == 0)
        #expect(Self.count("state store is unreachable", in: b.output) == 1)
        #expect(Self.count("state store is back", in: b.output) == 1)
        #expect(try await a.finish(secrets: [sealed]) == 0)
    }

    @Test func aStoreThatIsDownAtStartUpDoesNotStopServeInOpenMode() async throws {
        let redis = try await RedisServer.start()
        redis.kill()
        let stack = try await StubStack.start(extra: Self.state(redis))
        let swap = try await Exchange.form("/v1/swap", port: stack.port, [("code", "code-down")])
        #expect(swap.status == 200)
        #expect(try await Exchange.request("GET", "/readyz", port: stack.port).status == 200)
        #expect(try await stack.finish(secrets: []) == 0)
    }

    @Test func checkConfigSaysWhetherTheStoreAnswered() async throws {
        let redis = try await RedisServer.start(["--requirepass", "check-pass"])
        let environment = Deployment().environment(
            tokenURL: "https://accounts.example/api/token", keys: Deployment.newKey("A"),
            extra: [
                "TOKENSWAP_STATE_URL": "redis://:check-pass@127.0.0.1:\(redis.port)/2",
                // The default 100 ms is too short for a loaded machine's first connect.
                "TOKENSWAP_STATE_TIMEOUT_MS": "5000",
            ])
        let answered = try await TokenSwapProcess.run(["check-config"], environment: environment)
        #expect(answered.status == 0)
        #expect(answered.stdout.contains("state in \(redis.url)/2"))
        #expect(answered.stdout.contains("answered PING"))
        #expect(!(answered.stdout + answered.stderr).contains("check-pass"))
        redis.kill()
        let silent = try await TokenSwapProcess.run(["check-config"], environment: environment)
        #expect(silent.status == 0)
        #expect(silent.stderr.contains("did not answer PING"))
        #expect(!(silent.stdout + silent.stderr).contains("check-pass"))
    }

    /// `rediss://`: verified against `TOKENSWAP_CA_FILE` the copies share the store over
    /// TLS; `check-config` with a CA that did not sign the store's certificate says the
    /// store did not answer.
    @Test func aTLSStoreIsVerifiedWithTheConfiguredCA() async throws {
        let redis = try await RedisServer.start(tls: "good", ["--requirepass", "tls-store-pass"])
        let extra = [
            "TOKENSWAP_STATE_URL": "rediss://localhost:\(redis.port)/1",
            "TOKENSWAP_STATE_PASSWORD": "tls-store-pass",
            "TOKENSWAP_CA_FILE": TestPKI.shared.caFile,
            // A TLS connect on a loaded machine may outlast the default 100 ms, and a copy
            // would then count in its own memory (open mode): this test is about the store
            // being shared over TLS, not about its deadline.
            "TOKENSWAP_STATE_TIMEOUT_MS": "5000",
        ].merging(RateLimitPrefixTests.limit) { $1 }
        let first = try await StubStack.start(extra: extra)
        let second = try await TokenSwapProcess.serve(
            environment: first.deployment.environment(
                tokenURL: first.stub.tokenURL(), keys: first.keys, extra: extra))
        var statuses: [Int] = []
        for index in 0..<4 {
            statuses.append(try await Self.swap(index % 2 == 0 ? first.port : second.port))
        }
        #expect(statuses == [200, 200, 429, 429], "\(statuses)")
        let checked = try await TokenSwapProcess.run(
            ["check-config"],
            environment: first.deployment.environment(
                tokenURL: first.stub.tokenURL(), keys: first.keys, extra: extra))
        #expect(
            checked.stdout.contains(
                "state store at rediss://localhost:\(redis.port)/1 answered PING"))
        var untrusted = extra
        untrusted["TOKENSWAP_CA_FILE"] = TestPKI.shared.otherCAFile
        let refused = try await TokenSwapProcess.run(
            ["check-config"],
            environment: first.deployment.environment(
                tokenURL: first.stub.tokenURL(), keys: first.keys, extra: untrusted))
        #expect(refused.stderr.contains("did not answer PING"))
        #expect(!(refused.stdout + refused.stderr + checked.stdout).contains("tls-store-pass"))
        #expect(try await second.stop() == 0)
        #expect(try await first.finish(secrets: ["tls-store-pass"]) == 0)
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }
}
