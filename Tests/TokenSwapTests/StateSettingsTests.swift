import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

/// `TOKENSWAP_STATE_URL`, `_PASSWORD`, `_TIMEOUT_MS` and `_FAILURE` (CONTRACT §12): unset
/// is memory; each value out of its range or syntax is refused with one line naming the
/// setting and never quoting the URL or the password.
@Suite struct StateSettingsTests {
    typealias C = ConfigurationFixtures

    @Test func unsetIsStateInMemory() async throws {
        let configuration = try await C.load(C.minimalEnvironment())
        #expect(configuration.state == nil)
        #expect(configuration.summary.contains("state in memory"))
    }

    @Test func aURLWithItsCompanionsIsParsedAndSummarizedWithoutCredentials() async throws {
        var environment = C.minimalEnvironment()
        environment["TOKENSWAP_STATE_URL"] = "rediss://tokenswap@cache.internal:6380/3"
        environment["TOKENSWAP_STATE_PASSWORD"] = "pa55-word-secret"
        environment["TOKENSWAP_STATE_TIMEOUT_MS"] = "250"
        environment["TOKENSWAP_STATE_FAILURE"] = "closed"
        let configuration = try await C.load(environment)
        let state = try #require(configuration.state)
        #expect(state.location == "rediss://cache.internal:6380/3")
        #expect(state.timeout == .milliseconds(250))
        #expect(state.failure == .closed)
        #expect(state.endpoint.username == "tokenswap")
        #expect(state.endpoint.hasPassword)
        #expect(
            configuration.summary.contains(
                "state in rediss://cache.internal:6380/3 (failure closed)"))
        #expect(!configuration.summary.contains("pa55"))
        #expect(!"\(state)".contains("pa55"))
    }

    @Test func theDefaultsAreAHundredMillisecondsAndOpen() async throws {
        var environment = C.minimalEnvironment()
        environment["TOKENSWAP_STATE_URL"] = "redis://127.0.0.1"
        let state = try #require(try await C.load(environment).state)
        #expect(state.timeoutMilliseconds == 100)
        #expect(state.failure == .open)
        #expect(state.location == "redis://127.0.0.1:6379/0")
    }

    @Test(arguments: [
        "http://cache:6379", "redis://", "redis://:@cache", "redis://cache:99999",
        "redis://cache/x", "redis://:hunter2-in-url@cache:6379/0?x=1",
    ])
    func aURLThatIsNotAStoreIsRefusedWithoutQuotingIt(_ url: String) async throws {
        var environment = C.minimalEnvironment()
        environment["TOKENSWAP_STATE_URL"] = url
        let error = try #require(await C.error(environment))
        #expect(error.variable == "TOKENSWAP_STATE_URL")
        #expect(!error.description.contains("hunter2"))
    }

    @Test func aPasswordInTheURLAndSeparatelyIsRefused() async throws {
        var environment = C.minimalEnvironment()
        environment["TOKENSWAP_STATE_URL"] = "redis://:one-secret@cache"
        environment["TOKENSWAP_STATE_PASSWORD"] = "other-secret"
        let error = try #require(await C.error(environment))
        #expect(error.variable == "TOKENSWAP_STATE_URL")
        #expect(!error.description.contains("secret"))
    }

    @Test(arguments: ["0", "-1", "10001", "1e3", "fast", "99999999999999999999"])
    func timeoutsOutOfRangeAreRefused(_ text: String) async throws {
        var environment = C.minimalEnvironment()
        environment["TOKENSWAP_STATE_URL"] = "redis://cache"
        environment["TOKENSWAP_STATE_TIMEOUT_MS"] = text
        let error = try #require(await C.error(environment))
        #expect(error.variable == "TOKENSWAP_STATE_TIMEOUT_MS")
    }

    @Test func anUnknownFailureModeIsRefusedEvenWithoutAURL() async throws {
        var environment = C.minimalEnvironment()
        environment["TOKENSWAP_STATE_FAILURE"] = "ajar"
        let error = try #require(await C.error(environment))
        #expect(error.variable == "TOKENSWAP_STATE_FAILURE")
        #expect(error.description.contains("open or closed"))
    }

    @Test func theURLAndThePasswordAreSecrets() {
        #expect(ConfigurationSource.isSecret(environmentName: "TOKENSWAP_STATE_URL"))
        #expect(ConfigurationSource.isSecret(environmentName: "TOKENSWAP_STATE_PASSWORD"))
        #expect(ConfigurationSource.isSecret(fileKey: "state_password"))
        #expect(!ConfigurationSource.isSecret(environmentName: "TOKENSWAP_STATE_TIMEOUT_MS"))
    }
}
