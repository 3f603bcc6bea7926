/// How the service authenticates to a provider's token endpoint (RFC 6749 §2.3.1; the
/// names are the OAuth dynamic registration values, RFC 7591 §2).
public enum ClientAuthMethod: String, Sendable, Hashable, CaseIterable {
    /// `Authorization: Basic base64(id:secret)`; Spotify's default.
    case clientSecretBasic = "client_secret_basic"
    /// `client_id` and `client_secret` in the form body; LinkedIn's.
    case clientSecretPost = "client_secret_post"
    /// A public client (RFC 6749 §2.1): `client_id` in the form body, no secret
    /// (RFC 8628 §3.1, §3.4; L2P, GitHub's device flow).
    case none

    /// Whether this method sends a client secret, so one must be configured.
    public var needsSecret: Bool { self != .none }
}
