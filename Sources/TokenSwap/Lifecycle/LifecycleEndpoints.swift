import Sealing
import Transport

/// The standard OAuth surface after the grant (CONTRACT §8, §14): revocation
/// (`LifecycleEndpoints+Revoke`) and introspection (`+Introspect`), over the collaborators the grants share: the key ring to tell a sealed refresh token, the
/// legacy formats, grant families (the broker's own revocation) and the provider call.
final class LifecycleEndpoints: Sendable {
    let keyRing: KeyRing
    let upstream: ProviderCall
    let families: GrantFamilies
    let legacy: LegacyTokens
    let metrics: ServiceMetrics
    /// The per-client limit of `/introspect` (`TOKENSWAP_INTROSPECTION_RATE_LIMIT`, RFC 7662
    /// §4: token scanning); nil: off.
    let introspectionLimit: ClientRateLimit?
    /// An introspected token's `exp` and `iat` are compared with it.
    let clock: WallClock

    init(
        keyRing: KeyRing, upstream: ProviderCall, families: GrantFamilies, legacy: LegacyTokens,
        metrics: ServiceMetrics, introspectionLimit: ClientRateLimit?, clock: WallClock
    ) {
        self.keyRing = keyRing
        self.upstream = upstream
        self.families = families
        self.legacy = legacy
        self.metrics = metrics
        self.introspectionLimit = introspectionLimit
        self.clock = clock
    }
}
