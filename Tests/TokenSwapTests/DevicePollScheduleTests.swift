import Testing
import Transport

@testable import TokenSwap

/// The poll bookkeeping's arithmetic (RFC 8628 §3.5, CONTRACT §15): raising an interval
/// saturates at the ceiling, and numbers from a sealed code are clamped, never trapped on.
@Suite struct DevicePollScheduleTests {
    @Test func raisingSaturatesAtTheCeiling() {
        #expect(DevicePollSchedule.raised(5) == 10)
        #expect(DevicePollSchedule.raised(3595) == 3600)
        #expect(DevicePollSchedule.raised(3599) == 3600)
        #expect(DevicePollSchedule.raised(3600) == 3600)
        #expect(DevicePollSchedule.raised(Int.max) == 3600)
        #expect(DevicePollSchedule.raised(Int.max - 4) == 3600)
        #expect(DevicePollSchedule.raised(Int.min) == 6)
        #expect(DevicePollSchedule.raised(0) == 6)
    }

    /// `+= 5` on an interval near Int.max trapped; so did `.seconds(Int.max)` added to now.
    @Test func anIntervalNearIntMaxIsClampedAndRaisesWithoutTrapping() {
        let schedule = DevicePollSchedule(capacity: 4)
        let start = Deadline(uptimeNanoseconds: 1_000_000_000_000)  // any fixed instant
        let life = Duration.seconds(600)
        #expect(
            schedule.poll("d", initialInterval: Int.max - 2, lifetime: life, now: start)
                == .poll(interval: 3600))
        #expect(
            schedule.poll("d", initialInterval: Int.max - 2, lifetime: life, now: start)
                == .slowDown(interval: 3600))
        for _ in 0..<10 { #expect(schedule.providerAskedToSlowDown("d") == 3600) }
        #expect(
            schedule.poll("n", initialInterval: Int.min, lifetime: life, now: start)
                == .poll(interval: 1))
    }

    @Test func anyLifetimeIsKeptWithinTheLongest() {
        let schedule = DevicePollSchedule(capacity: 4)
        let start = Deadline(uptimeNanoseconds: 1_000_000_000_000)  // any fixed instant
        for (key, lifetime) in [
            ("max", Duration.seconds(Int64.max)), ("min", Duration.seconds(Int64.min)),
            ("zero", Duration.zero),
        ] {
            #expect(
                schedule.poll(key, initialInterval: 5, lifetime: lifetime, now: start)
                    == .poll(interval: 5))
        }
        #expect(schedule.providerAskedToSlowDown("max") == 10)
        // Past the longest lifetime, even the "max" entry is gone (its raised interval
        // with it): a new first poll.
        let later = Deadline.after(
            seconds: Double(DevicePollSchedule.longestLifetime.components.seconds + 1), from: start)
        #expect(
            schedule.poll("max", initialInterval: 5, lifetime: .seconds(600), now: later)
                == .poll(interval: 5))
    }
}
