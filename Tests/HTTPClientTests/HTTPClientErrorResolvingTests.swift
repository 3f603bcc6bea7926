import Testing
import Transport

@testable import HTTPClient

/// Resolving is part of connecting (CONTRACT.md §2): a name that does not resolve is
/// unreachable (502), a lookup past its deadline a connect timeout (504).
@Suite struct HTTPClientErrorResolvingTests {
    @Test func unresolvableNameIsUnreachableWithTheReason() {
        let cause = TransportError.unresolvable(host: "no-such-host.invalid", code: 0)
        #expect(HTTPClientError(.unresolvable(cause)) == .unreachable(reason: "\(cause)"))
    }

    @Test func lookupPastItsDeadlineIsAConnectTimeout() {
        #expect(HTTPClientError(.timedOut) == .timeout(.connect))
    }
}
