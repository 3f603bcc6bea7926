/// The DPoP settings of CONTRACT §13: `TOKENSWAP_<NAME>_DPOP` per provider,
/// `TOKENSWAP_DPOP_MAX_AGE_SECONDS` and `TOKENSWAP_DPOP_NONCE`.
package struct DPoPSettings: Sendable, Equatable {
    /// `TOKENSWAP_DPOP_MAX_AGE_SECONDS`: how old a proof's `iat` may be.
    package static let defaultMaxAgeSeconds = 60
    /// Below a second no real client's proof arrives in time; beyond ten minutes a
    /// captured proof stays useful (and its `jti` kept) for too long.
    package static let maxAgeSecondsRange = SettingRange(1...600, expected: "seconds from 1 to 600")

    /// Each provider's mode by name; a provider not listed is `DPoPMode.default`.
    package let modes: [String: DPoPMode]
    package let maxAgeSeconds: Int
    /// `TOKENSWAP_DPOP_NONCE=on` (the default): proofs must carry a nonce tokenswap issued.
    package let noncesRequired: Bool

    package init(
        modes: [String: DPoPMode] = [:], maxAgeSeconds: Int = Self.defaultMaxAgeSeconds,
        noncesRequired: Bool = true
    ) {
        self.modes = modes
        self.maxAgeSeconds = maxAgeSeconds
        self.noncesRequired = noncesRequired
    }

    package func mode(for provider: String) -> DPoPMode {
        modes[provider] ?? .default
    }

    /// Reads the settings for `providers` (their names) from `source`.
    init(_ source: ConfigurationSource, providers: [String]) throws(ConfigurationError) {
        var modes: [String: DPoPMode] = [:]
        for name in providers {
            modes[name] = try ServiceConfiguration.choice(
                .provider(name, .dpop), source, default: DPoPMode.default)
        }
        let maxAge = try Self.maxAgeSecondsRange.checked(
            try source.int(.dpopMaxAgeSeconds) ?? Self.defaultMaxAgeSeconds,
            variable: ConfigurationKey.dpopMaxAgeSeconds.environmentName)
        let nonce = try ServiceConfiguration.choice(.dpopNonce, source, default: Switch.on)
        self.init(modes: modes, maxAgeSeconds: maxAge, noncesRequired: nonce == .on)
    }

    /// `TOKENSWAP_DPOP_NONCE`'s values.
    enum Switch: String, CaseIterable {
        case on, off
    }
}

/// `TOKENSWAP_<NAME>_DPOP` (CONTRACT §13): what a provider does with `DPoP` headers.
public enum DPoPMode: String, Sendable, CaseIterable {
    /// A valid proof binds; no proof binds nothing, so clients that cannot send proofs
    /// work as before (the default).
    case optional
    /// A swap, refresh, token or device request without a valid proof is refused with
    /// `400 invalid_dpop_proof`.
    case required
    /// The header is ignored: nothing is bound, no `DPoP-Nonce` is sent, discovery does
    /// not list the algorithm.
    case off

    public static let `default` = DPoPMode.optional
}
