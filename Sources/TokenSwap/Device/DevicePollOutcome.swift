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
