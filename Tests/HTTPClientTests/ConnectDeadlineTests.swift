import Testing
import Transport

@testable import HTTPClient

/// How long a connect to one of several addresses may take (CONTRACT §5): a share of the
/// request's own deadline, never a fixed span, and all of what is left for the last.
@Suite struct ConnectDeadlineTests {
    static let now = Deadline(uptimeNanoseconds: 1_000_000_000_000)

    @Test func oneAddressHasTheWholeDeadline() {
        for seconds in [0.001, 6, 30, 300] {
            let deadline = Deadline.after(seconds: seconds, from: Self.now)
            #expect(
                HTTPClient.connectDeadline(addressesLeft: 1, within: deadline, now: Self.now)
                    == deadline)
        }
    }

    @Test func severalAddressesShareWhatIsLeftEvenly() {
        let deadline = Deadline.after(seconds: 30, from: Self.now)
        #expect(
            HTTPClient.connectDeadline(addressesLeft: 2, within: deadline, now: Self.now)
                == .after(seconds: 15, from: Self.now))
        #expect(
            HTTPClient.connectDeadline(addressesLeft: 3, within: deadline, now: Self.now)
                == .after(seconds: 10, from: Self.now))
        // Ten seconds on, two addresses left: ten seconds each of the twenty remaining.
        let later = Deadline.after(seconds: 10, from: Self.now)
        #expect(
            HTTPClient.connectDeadline(addressesLeft: 2, within: deadline, now: later)
                == .after(seconds: 10, from: later))
    }

    @Test func aPassedDeadlineStaysPassed() {
        let deadline = Self.now
        let later = Deadline.after(seconds: 1, from: Self.now)
        for left in [1, 2, 5] {
            #expect(
                HTTPClient.connectDeadline(addressesLeft: left, within: deadline, now: later)
                    <= later)
        }
    }
}
