import Synchronization
import TokenSwapClient

/// A session clock the test moves by hand. `sleep` does not wait: it moves the clock on
/// by the time asked for and records it, so a device-flow poll schedule is read exactly.
final class ManualClock: SessionClock {
    private let state = Mutex<(now: Double, sleeps: [Double])>((1000, []))

    func now() -> Double { state.withLock { $0.now } }

    /// The wall clock moves with the monotonic one, from `wallStart` at `now() == 1000`.
    func wallNow() -> Double { Self.wallStart + now() - 1000 }

    static let wallStart: Double = 1_800_000_000

    func sleep(seconds: Double) async throws {
        try Task.checkCancellation()
        state.withLock {
            $0.now += seconds
            $0.sleeps.append(seconds)
        }
    }

    func advance(_ seconds: Double) {
        state.withLock { $0.now += seconds }
    }

    var sleeps: [Double] { state.withLock { $0.sleeps } }
}
