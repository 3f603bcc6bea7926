/// How a provider revokes tokens (CONTRACT §8, `TOKENSWAP_<NAME>_REVOCATION_STYLE`).
public enum RevocationStyle: String, Sendable, Hashable, CaseIterable {
    /// RFC 7009 §2.1: `POST` `token` and `token_type_hint` with client authentication.
    case rfc7009
    /// No revocation API (Spotify): nothing is sent, and the answer says so in
    /// `Tokenswap-Revocation: unsupported`.
    case none
}
