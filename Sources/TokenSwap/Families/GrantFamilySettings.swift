#if canImport(Glibc)
    import Glibc
#endif

/// The grant-family settings of CONTRACT §14: `TOKENSWAP_REVOCATION_RETENTION_DAYS`, and per
/// provider `TOKENSWAP_<NAME>_REUSE_DETECTION` and `_REFRESH_TOKEN_LIFETIME_SECONDS`.
package struct GrantFamilySettings: Sendable, Equatable {
    /// How long a revoked family (and a family's newest generation) is remembered: longer
    /// than any provider keeps a refresh token alive unused (Spotify's six months of 2026).
    package static let defaultRetentionDays = 190
    /// A day at least (a shorter record would let a revoked grant come back the next
    /// morning); ten years at most, far beyond any provider's refresh-token lifetime.
    package static let retentionDaysRange = SettingRange(
        1...3650, expected: "days from 1 to 3650")
    /// Ten years: beyond any provider's refresh-token lifetime; 0 means unknown.
    package static let lifetimeSecondsRange = SettingRange(
        1...315_360_000, expected: "seconds, 0 (unknown) or 1 to 315360000", alsoAllowed: 0)

    /// Each provider's policy by name; a provider not listed has `GrantFamilyPolicy()`.
    package let policies: [String: GrantFamilyPolicy]
    package let retentionDays: Int

    package init(
        policies: [String: GrantFamilyPolicy] = [:], retentionDays: Int = Self.defaultRetentionDays
    ) {
        self.policies = policies
        self.retentionDays = retentionDays
    }

    package func policy(for provider: String) -> GrantFamilyPolicy {
        policies[provider] ?? GrantFamilyPolicy()
    }

    /// Now in Unix seconds, from the system's real-time clock.
    package static func unixNow() -> Int64 { Int64(time(nil)) }

    /// `retentionDays` as a `Duration` (at most ten years of seconds: no overflow).
    package var retention: Duration { .seconds(retentionDays * 86_400) }

    /// Reads the settings for `providers` (their names) from `source`.
    init(_ source: ConfigurationSource, providers: [String]) throws(ConfigurationError) {
        var policies: [String: GrantFamilyPolicy] = [:]
        for name in providers {
            let detection = try ServiceConfiguration.choice(
                .provider(name, .reuseDetection), source, default: Switch.off)
            let lifetimeKey = ConfigurationKey.provider(name, .refreshTokenLifetimeSeconds)
            let lifetime = try Self.lifetimeSecondsRange.checked(
                try source.int(lifetimeKey) ?? 0, variable: lifetimeKey.environmentName)
            policies[name] = GrantFamilyPolicy(
                reuseDetection: detection == .on, refreshTokenLifetimeSeconds: lifetime)
        }
        let retention = try Self.retentionDaysRange.checked(
            try source.int(.revocationRetentionDays) ?? Self.defaultRetentionDays,
            variable: ConfigurationKey.revocationRetentionDays.environmentName)
        self.init(policies: policies, retentionDays: retention)
    }

    /// `TOKENSWAP_<NAME>_REUSE_DETECTION`'s values.
    enum Switch: String, CaseIterable {
        case off, on
    }
}

/// What one provider does with the families of its grants (CONTRACT §14).
package struct GrantFamilyPolicy: Sendable, Equatable {
    /// `TOKENSWAP_<NAME>_REUSE_DETECTION=on` (RFC 9700 §4.14.2): an older generation
    /// presented after the replay window revokes the family. Off by default: it needs
    /// clients that keep the refresh token of every answer.
    package let reuseDetection: Bool
    /// `TOKENSWAP_<NAME>_REFRESH_TOKEN_LIFETIME_SECONDS`: how long a grant lives from its
    /// start whatever the app does (Spotify: six months since 2026); 0: unknown.
    package let refreshTokenLifetimeSeconds: Int

    package init(reuseDetection: Bool = false, refreshTokenLifetimeSeconds: Int = 0) {
        self.reuseDetection = reuseDetection
        self.refreshTokenLifetimeSeconds = max(0, refreshTokenLifetimeSeconds)
    }

    /// Seconds left of a grant that started at `startTime` (Unix seconds) at `now`: nil when
    /// the lifetime is unknown, 0 once it has run out. Saturating: a start time from a seal
    /// or a clock set back can be anything.
    package func secondsLeft(startTime: UInt64, now: Int64) -> Int? {
        guard refreshTokenLifetimeSeconds > 0 else { return nil }
        let now = UInt64(max(0, now))
        let elapsed = now > startTime ? now - startTime : 0
        let lifetime = UInt64(refreshTokenLifetimeSeconds)
        return elapsed >= lifetime ? 0 : Int(lifetime - elapsed)
    }
}
