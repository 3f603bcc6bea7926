/// What `…/revoke` did (CONTRACT §8).
public enum RevocationOutcome: Sendable, Hashable {
    /// Forwarded to the provider (or the token was already invalid: RFC 7009 §2.2, no
    /// oracle).
    case revoked
    /// The provider has no revocation API (Spotify): only the local copy is gone.
    case unsupported
}
