/// How a provider tells whether an access token is live (CONTRACT §8,
/// `TOKENSWAP_<NAME>_INTROSPECTION_STYLE`). Every style is answered in RFC 7662's shape.
public enum IntrospectionStyle: String, Sendable, Hashable, CaseIterable {
    /// RFC 7662 §2.1: `POST` `token` and `token_type_hint` with client authentication.
    case rfc7662
    /// LinkedIn's `introspectToken`: `client_id`, `client_secret` and `token` in the form
    /// body; it answers RFC 7662's `active` plus `expires_at`.
    case linkedin
    /// Google's `tokeninfo`: `access_token` in a form body; numbers come as strings.
    case google
    /// GitHub's "check a token": `POST /applications/<client_id>/token` with Basic auth
    /// and the token in a JSON body; 404 for a dead one.
    case github
    /// L2P's `tokeninfo`: `client_id` and `access_token`; live when `state` is `valid`.
    case l2p
    /// No introspection: `/introspect` is not served for the provider (404).
    case none
}
