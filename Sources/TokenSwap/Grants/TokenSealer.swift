import HTTPCore
import Sealing

/// Sealing and opening with the key ring, a collaborator of every grant that hands a value
/// to the client or takes one back: refresh tokens, device codes, kept answers (CONTRACT
/// §4, §7, §12). A failure is counted (`tokenswap_sealing_failures_total`) and becomes the
/// request's `GrantError`.
final class TokenSealer: Sendable {
    let keyRing: KeyRing
    let metrics: ServiceMetrics

    init(keyRing: KeyRing, metrics: ServiceMetrics) {
        self.keyRing = keyRing
        self.metrics = metrics
    }

    /// What a sealed value is bound to: a value sealed for one provider, client id or
    /// kind does not open for another (CONTRACT §4, §7).
    static func context(_ provider: Provider, kind: SealedKind = .refreshToken) -> SealingContext {
        provider.sealingContext(kind)
    }

    /// Seals a raw provider value for the client: a refresh token unless `kind` says
    /// otherwise; with `grant`'s binding and family (CONTRACT §13, §14), else as the first
    /// token of a new unbound family.
    func seal(
        _ rawToken: String, for provider: Provider, kind: SealedKind = .refreshToken,
        grant: SealedGrant? = nil
    ) throws(GrantError) -> String {
        do {
            let context = Self.context(provider, kind: kind)
            if let grant { return try keyRing.seal(rawToken, grant: grant, context: context) }
            return try keyRing.seal(rawToken, context: context)
        } catch .plaintextTooLong {
            metrics.sealingFailed(.seal, reason: "too_long")
            throw .upstreamError(reason: "provider value too long to seal")
        } catch {
            metrics.sealingFailed(.seal, reason: "crypto_unavailable")
            throw .temporarilyUnavailable(reason: "sealing failed: \(error)")
        }
    }

    /// Opens a sealed value of `kind` for this provider and client with the key ring;
    /// any other kind, provider or client does not open (CONTRACT §4, §7). Never a legacy
    /// decoder: those are for refresh tokens only (`openRefreshToken`, CONTRACT §9).
    func open(_ sealed: String, for provider: Provider, kind: SealedKind = .refreshToken)
        throws(GrantError) -> OpenedToken
    {
        guard let opened = try openNatively(sealed, for: provider, kind: kind) else {
            // One bucket on purpose: the key ring does not say which check failed, so a
            // client probing the format learns nothing, from answers or from metrics.
            metrics.sealingFailed(.open, reason: "invalid_token")
            throw kind == .deviceCode ? .unopenableDeviceCode : .unopenableToken
        }
        return opened
    }

    /// The key ring's opening; nil when the value does not open (counted by the caller).
    func openNatively(_ sealed: String, for provider: Provider, kind: SealedKind)
        throws(GrantError) -> OpenedToken?
    {
        do {
            let opened = try keyRing.open(sealed, context: Self.context(provider, kind: kind))
            metrics.opened(keyID: opened.keyID)
            return opened
        } catch .invalidToken {
            return nil
        } catch {
            metrics.sealingFailed(.open, reason: "crypto_unavailable")
            throw .temporarilyUnavailable(reason: "opening failed: \(error)")
        }
    }
}
