import Testing
import Transport

@testable import RESPClient

/// The store's host that does not resolve is a failed connect; a lookup past the
/// connection attempt's deadline a timeout (CONTRACT §12).
@Suite struct RESPErrorResolvingTests {
    @Test func unresolvableNameIsAFailedConnectWithTheReason() {
        let cause = TransportError.unresolvable(host: "no-such-host.invalid", code: 0)
        #expect(RESPError(.unresolvable(cause)) == .connectFailed(reason: "\(cause)"))
    }

    @Test func lookupPastItsDeadlineIsATimeout() {
        #expect(RESPError(.timedOut) == .timedOut)
    }
}
