import Testing
import TokenSwapClient

/// The default clock: seconds that only go forward, and a sleep that lasts. Time itself
/// is what is tested: the clock's own sleeps, not waits for anything else.
@Suite(.resourceClass(.integration)) struct MonotonicSessionClockTests {
    @Test func countsSecondsAndSleeps() async throws {
        let clock = MonotonicSessionClock()
        let start = clock.now()
        #expect(start >= 0 && start < 60)  // counted from the clock's making, not from boot
        try await clock.sleep(seconds: 0.05)
        let slept = clock.now() - start
        #expect(slept >= 0.05)
        #expect(clock.now() >= start + slept)
    }

    @Test func aCancelledSleepThrows() async {
        let clock = MonotonicSessionClock()
        let sleeping = Task { try await clock.sleep(seconds: 60) }
        sleeping.cancel()
        await #expect(throws: CancellationError.self) { try await sleeping.value }
    }

    /// `Duration.seconds(_:)` traps on NaN and infinity; the clock bounds the wait first.
    /// (No bound on the time all this takes: a loaded machine took 27 s over a 10 s one.
    /// NaN and negative waits are none, the longest is 31 years, so a wait that was not
    /// bounded as promised would hang the test, not slow it.)
    @Test func anyWaitIsBoundedNotTrapped() async throws {
        let clock = MonotonicSessionClock()
        try await clock.sleep(seconds: .nan)
        try await clock.sleep(seconds: -.infinity)
        try await clock.sleep(seconds: -1)
        for seconds in [Double.infinity, .greatestFiniteMagnitude, 1e20] {
            let sleeping = Task { try await clock.sleep(seconds: seconds) }
            sleeping.cancel()
            await #expect(throws: CancellationError.self) { try await sleeping.value }
        }
    }
}
