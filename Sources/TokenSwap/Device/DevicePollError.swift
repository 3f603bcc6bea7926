/// The answers of a device poll that are not tokens (RFC 8628 §3.5), as tokenswap
/// gives them to the device whatever the provider's shape was (CONTRACT §7).
public enum DevicePollError: String, Sendable, Hashable, CaseIterable {
    /// The user has not finished yet: poll again after `interval`.
    case authorizationPending = "authorization_pending"
    /// Polled too soon: poll again after the raised `interval` (+5 s, §3.5).
    case slowDown = "slow_down"
    /// The user denied the request: stop polling.
    case accessDenied = "access_denied"
    /// The device code expired: stop polling, start again with a new code.
    case expiredToken = "expired_token"

    /// Pending and slow_down keep the device polling; the others end the flow.
    var keepsPolling: Bool { self == .authorizationPending || self == .slowDown }

    var errorDescription: String {
        switch self {
        case .authorizationPending: "the user has not approved the request yet"
        case .slowDown: "polling too fast; wait the interval before polling again"
        case .accessDenied: "the user denied the request"
        case .expiredToken: "the device code expired; request a new one"
        }
    }
}

/// How a device poll ended, as `tokenswap_device_polls_total` counts it: a closed set,
/// so the `outcome` label stays bounded.
package enum DevicePollOutcome: String, Sendable, CaseIterable {
    case pending
    /// Answered `slow_down` by tokenswap itself, without calling the provider.
    case slowDownLocal = "slow_down_local"
    /// The provider said `slow_down`.
    case slowDownUpstream = "slow_down_upstream"
    case approved
    case denied
    /// Past its expiry: answered locally from the sealed expiry, or by the provider.
    case expired

    init(_ refusal: DevicePollError) {
        switch refusal {
        case .authorizationPending: self = .pending
        case .slowDown: self = .slowDownUpstream
        case .accessDenied: self = .denied
        case .expiredToken: self = .expired
        }
    }
}
