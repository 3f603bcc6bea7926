import Dispatch
import TestSupport
import Testing
import Transport

/// Seconds are clamped once, when a deadline is made: nothing further down can trap on
/// NaN, a negative or a huge value.
@Suite(.resourceClass(.compute)) struct DeadlineTests {
    static let start = Deadline(uptimeNanoseconds: 1_000_000_000)

    /// `now` reads the clock Dispatch's timers run on (`dispatchTime` hands deadlines to
    /// them): read between two reads of Dispatch's, it falls between them.
    @Test func nowIsOnDispatchsClock() {
        for _ in 0..<1_000 {
            let before = DispatchTime.now().uptimeNanoseconds
            let now = Deadline.now.uptimeNanoseconds
            let after = DispatchTime.now().uptimeNanoseconds
            #expect(before <= now && now <= after)
        }
    }

    static let oneSecond: UInt64 = 1_000_000_000
    static let clampedMax: UInt64 = oneSecond + 1_000_000 * oneSecond

    @Test(
        arguments: [
            (1.5, 2_500_000_000), (0, oneSecond), (-3, oneSecond), (Double.nan, oneSecond),
            (Double.infinity, clampedMax), (1e300, clampedMax),
        ] as [(Double, UInt64)])
    func secondsAreClampedOnce(seconds: Double, expected: UInt64) {
        #expect(Deadline.after(seconds: seconds, from: Self.start).uptimeNanoseconds == expected)
    }

    /// A `Duration` is clamped as seconds are: a negative one is `start`, a huge one the
    /// clamped maximum, and a fraction of a second is kept to the nanosecond below.
    @Test(
        arguments: [
            (.milliseconds(1_500), 2_500_000_000), (.zero, oneSecond), (.seconds(-3), oneSecond),
            (.nanoseconds(7), oneSecond + 7), (.seconds(Int64.max), clampedMax),
            (.seconds(60), oneSecond + 60 * oneSecond),
            (.nanoseconds(-1), oneSecond), (.seconds(1_000_000), clampedMax),
            (.seconds(1_000_001), clampedMax), (.seconds(Int64.min), oneSecond),
            (Duration(secondsComponent: 2, attosecondsComponent: 999_999_999), oneSecond * 3),
            (Duration(secondsComponent: 0, attosecondsComponent: 1_999_999_999), oneSecond + 1),
        ] as [(Duration, UInt64)])
    func durationsAreClampedAsSecondsAre(duration: Duration, expected: UInt64) {
        #expect(Deadline.after(duration, from: Self.start).uptimeNanoseconds == expected)
    }

    /// The integer conversion against the exact one (the attoseconds divided as a 128-bit
    /// number, clamped) and within a nanosecond of the seconds' (`Double`) path, for
    /// durations of every size up to past the clamp, fractions of a nanosecond included.
    @Test func durationsConvertExactlyToNanoseconds() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
        let limit = Int128(1_000_000) * 1_000_000_000
        for round in 0..<20_000 {
            // From below a nanosecond to about 10^14 seconds, and a few negative ones.
            let attoseconds = (Int128(next()) << (next() % 62)) >> 20 + Int128(round % 3) - 1
            let duration = Duration(attoseconds: attoseconds)
            let exact = min(max(attoseconds, 0) / 1_000_000_000, limit)
            let converted = Deadline.after(duration, from: Self.start).uptimeNanoseconds
            #expect(Int128(converted) == Int128(Self.start.uptimeNanoseconds) + exact)
            let bySeconds = Deadline.after(
                seconds: Double(attoseconds) / 1e18, from: Self.start
            ).uptimeNanoseconds
            #expect(
                converted.distance(to: bySeconds).magnitude <= 1 + converted / 1_000_000_000_000_000
            )
        }
        #expect(Deadline.after(.seconds(1), from: .never) == .never)
    }

    @Test func secondsLeftAndPassing() {
        let deadline = Deadline.after(seconds: 2, from: Self.start)
        #expect(deadline.secondsLeft(from: Self.start) == 2)
        #expect(!deadline.hasPassed(at: Self.start))
        #expect(deadline.hasPassed(at: deadline))
        #expect(deadline.secondsLeft(from: Deadline.after(seconds: 5, from: Self.start)) == 0)
        #expect(Deadline.after(seconds: 1, from: .never) == .never)
        #expect(deadline.earlier(.never) == deadline)
    }
}
