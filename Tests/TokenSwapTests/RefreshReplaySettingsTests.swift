import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

/// `TOKENSWAP_REFRESH_REPLAY_SECONDS` and `TOKENSWAP_REFRESH_REPLAY_MAX_ENTRIES` (CONTRACT
/// §12): their defaults, `0` turning the window off, and every value out of range refused
/// with one line naming the setting.
@Suite struct RefreshReplaySettingsTests {
    typealias C = ConfigurationFixtures

    @Test func defaultsAreSixtySecondsAndFiftyThousandEntries() async throws {
        let configuration = try await C.load(C.minimalEnvironment())
        #expect(configuration.refreshReplaySeconds == 60)
        #expect(configuration.refreshReplayMaxEntries == 50_000)
    }

    @Test(arguments: [("0", 0), ("1", 1), ("600", 600), (" 90 ", 90)])
    func windowsInRangeAreTaken(_ text: String, _ seconds: Int) async throws {
        var environment = C.minimalEnvironment()
        environment["TOKENSWAP_REFRESH_REPLAY_SECONDS"] = text
        #expect(try await C.load(environment).refreshReplaySeconds == seconds)
    }

    @Test(arguments: ["601", "-1", "3600", "1e3", "sixty", "99999999999999999999"])
    func windowsOutOfRangeAreRefused(_ text: String) async throws {
        var environment = C.minimalEnvironment()
        environment["TOKENSWAP_REFRESH_REPLAY_SECONDS"] = text
        let error = try #require(await C.error(environment))
        #expect(error.variable == "TOKENSWAP_REFRESH_REPLAY_SECONDS")
        if text == "601" || text == "3600" || text == "-1" {
            #expect(error.description.contains("0 (off) or 1 to 600"))
        }
    }

    @Test(arguments: ["0", "-5", "10000001", "many"])
    func entriesOutOfRangeAreRefused(_ text: String) async throws {
        var environment = C.minimalEnvironment()
        environment["TOKENSWAP_REFRESH_REPLAY_MAX_ENTRIES"] = text
        let error = try #require(await C.error(environment))
        #expect(error.variable == "TOKENSWAP_REFRESH_REPLAY_MAX_ENTRIES")
    }

    @Test func theStoreOfAConfigurationHasItsCap() async throws {
        var environment = C.minimalEnvironment()
        environment["TOKENSWAP_REFRESH_REPLAY_MAX_ENTRIES"] = "1000"
        let store = MemoryStateStore(configuration: try await C.load(environment))
        #expect(store.replay.capacity <= 1000)
        #expect(store.replay.capacity >= 1000 - MemoryStateStore.defaultShardCount)
    }
}
