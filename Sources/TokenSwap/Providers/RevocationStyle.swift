/// How a provider revokes tokens (CONTRACT §8, `TOKENSWAP_<NAME>_REVOCATION_STYLE`).
public enum RevocationStyle: String, Sendable, Hashable, CaseIterable {
    /// RFC 7009 §2.1: `POST` `token` and `token_type_hint` with client authentication.
    case rfc7009
    /// Google's `/revoke`: `POST` `token` alone (either kind; a refresh token ends the grant).
    case google
    /// GitHub's `DELETE /applications/<client_id>/token` with Basic auth and the access
    /// token in a JSON body; GitHub has no way to revoke by refresh token.
    case github
    /// L2P's token endpoint with `grant_type=invalidate&refresh_token=…`; refresh tokens only.
    case l2p
    /// No revocation API (Spotify): nothing is sent, and the answer says so in
    /// `Tokenswap-Revocation: unsupported`.
    case none
}
