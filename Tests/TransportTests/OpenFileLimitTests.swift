import Testing
import Transport

/// The connection cap keeps descriptors free for upstream sockets, logs and the admin
/// port, whatever the open-file limit.
@Suite struct OpenFileLimitTests {
    @Test(arguments: [
        // (configured cap, open-file limit, cap used)
        (10_000, 48, 24), (10_000, 64, 32), (10_000, 1024, 768), (10_000, 1_048_576, 10_000),
        (100, 1024, 100), (10_000, 2, 1),
    ])
    func theCapLeavesAReserve(configured: Int, openFiles: Int, cap: Int) {
        #expect(OpenFileLimit.connectionCap(configured: configured, openFiles: openFiles) == cap)
    }

    @Test func raisingTheSoftLimitNeverLowersIt() {
        let before = OpenFileLimit.current
        #expect(OpenFileLimit.raiseSoftLimitToHard() >= before)
    }
}
