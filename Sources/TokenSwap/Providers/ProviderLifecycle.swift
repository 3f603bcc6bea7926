import HTTPClient

/// A provider's endpoints beyond the token endpoint (CONTRACT §8): where its users
/// authorize (published in the discovery document, never called), and how it revokes and
/// introspects tokens. The configuration gives every style other than `none` its URL.
public struct ProviderLifecycle: Sendable, Hashable {
    /// The provider's own authorization endpoint, for RFC 8414's `authorization_endpoint`.
    public let authorizeURL: String?
    public let revocationStyle: RevocationStyle
    public let revocationURL: UpstreamURL?
    public let introspectionStyle: IntrospectionStyle
    public let introspectionURL: UpstreamURL?

    public init(
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
    public static let unsupported = ProviderLifecycle()

    public var revokes: Bool { revocationStyle != .none && revocationURL != nil }
    public var introspects: Bool { introspectionStyle != .none && introspectionURL != nil }
}
