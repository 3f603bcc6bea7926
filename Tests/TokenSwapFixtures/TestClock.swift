import Synchronization
import Transport

/// The service's two clocks, Unix time (`WallClock`) and the monotonic `Deadline`, moved
/// together and only by the test: what unit tests of lifetimes, windows and limits run on.
final class TestClock: Sendable {
    static let start: Int64 = 1_800_000_000
    private let offset = Mutex<Int64>(0)

    func advance(seconds: Int64) { offset.withLock { $0 += seconds } }
    var unix: Int64 { Self.start + offset.withLock { $0 } }
    var deadline: Deadline {
        Deadline(
            uptimeNanoseconds: 1_000_000_000_000 + UInt64(offset.withLock { $0 })
                * 1_000_000_000)
    }
    /// `unix` as the service reads it.
    var wallClock: WallClock { WallClock { [self] in unix } }
}
