import HTTPClient

/// A provider's endpoints beyond the token endpoint (CONTRACT §8): where its users
/// authorize (published in the discovery document, never called), and how it revokes and
/// introspects tokens. The configuration gives every style other than `none` its URL.
package struct ProviderLifecycle: Sendable, Hashable {
    /// The provider's own authorization endpoint, for RFC 8414's `authorization_endpoint`.
    package let authorizeURL: String?
    package let revocationStyle: RevocationStyle
    package let revocationURL: UpstreamURL?
    package let introspectionStyle: IntrospectionStyle
    package let introspectionURL: UpstreamURL?

    package init(
        authorizeURL: String? = nil, revocationStyle: RevocationStyle = .none,
        revocationURL: UpstreamURL? = nil, introspectionStyle: IntrospectionStyle = .none,
        introspectionURL: UpstreamURL? = nil
    ) {
        self.authorizeURL = authorizeURL
        self.revocationStyle = revocationStyle
        self.revocationURL = revocationURL
        self.introspectionStyle = introspectionStyle
        self.introspectionURL = introspectionURL
    }

    /// Neither revocation nor introspection, no authorize URL.
    package static let unsupported = ProviderLifecycle()

    package var revokes: Bool { revocationStyle != .none && revocationURL != nil }
    package var introspects: Bool { introspectionStyle != .none && introspectionURL != nil }
}

/// What `RevocationStyle` and `IntrospectionStyle` share, so one configuration reader
/// serves both: the style that calls nothing, and the RFC one a bare URL implies.
protocol LifecycleStyle: RawRepresentable<String>, CaseIterable, Equatable, Sendable {
    static var unsupported: Self { get }
    static var standard: Self { get }
}

extension RevocationStyle: LifecycleStyle {
    static var unsupported: RevocationStyle { .none }
    static var standard: RevocationStyle { .rfc7009 }
}

extension IntrospectionStyle: LifecycleStyle {
    static var unsupported: IntrospectionStyle { .none }
    static var standard: IntrospectionStyle { .rfc7662 }
}

/// How a provider revokes tokens (CONTRACT §8, `TOKENSWAP_<NAME>_REVOCATION_STYLE`).
package enum RevocationStyle: String, Sendable, Hashable, CaseIterable {
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

/// How a provider tells whether an access token is live (CONTRACT §8,
/// `TOKENSWAP_<NAME>_INTROSPECTION_STYLE`). Every style is answered in RFC 7662's shape.
package enum IntrospectionStyle: String, Sendable, Hashable, CaseIterable {
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
