import Testing
import Transport

/// Seconds are clamped once, when a deadline is made: nothing further down can trap on
/// NaN, a negative or a huge value.
@Suite struct DeadlineTests {
    static let start = Deadline(uptimeNanoseconds: 1_000_000_000)

    static let oneSecond: UInt64 = 1_000_000_000
    static let clampedMax: UInt64 = oneSecond + 1_000_000 * oneSecond

    @Test(arguments: [
        (1.5, 2_500_000_000), (0, oneSecond), (-3, oneSecond), (Double.nan, oneSecond),
        (Double.infinity, clampedMax), (1e300, clampedMax),
    ] as [(Double, UInt64)])
    func secondsAreClampedOnce(seconds: Double, expected: UInt64) {
        #expect(Deadline.after(seconds: seconds, from: Self.start).uptimeNanoseconds == expected)
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
