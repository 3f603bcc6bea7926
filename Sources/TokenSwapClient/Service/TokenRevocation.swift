/// What `…/revoke` did (CONTRACT §8). Named apart from the server's own
/// `RevocationOutcome`, so code that sees both modules needs no module prefix.
public enum TokenRevocation: Sendable, Hashable {
    /// Forwarded to the provider (or the token was already invalid: RFC 7009 §2.2, no
    /// oracle).
    case revoked
    /// The provider has no revocation API (Spotify) and was not asked: the app still shows
    /// among the user's authorised apps there. tokenswap ends the grant itself
    /// (`Tokenswap-Revocation: broker`, CONTRACT §14) where it keeps revocations.
    case unsupported
}

/// The name before issue 19, kept so existing apps compile.
@available(*, deprecated, renamed: "TokenRevocation")
public typealias RevocationOutcome = TokenRevocation
