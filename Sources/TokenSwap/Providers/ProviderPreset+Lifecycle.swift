extension ProviderPreset {
    /// Where the provider's users authorize an app (RFC 6749 §3.1).
    public var authorizeURL: String? {
        switch self {
        case .spotify: "https://accounts.spotify.com/authorize"
        case .linkedin: "https://www.linkedin.com/oauth/v2/authorization"
        case .generic: nil
        }
    }

    /// Spotify has no revocation API; LinkedIn has none for 3-legged member tokens.
    public var revocationStyle: RevocationStyle {
        switch self {
        case .spotify, .linkedin, .generic: .none
        }
    }

    public var revocationURL: String? {
        switch self {
        case .spotify, .linkedin, .generic: nil
        }
    }

    public var introspectionStyle: IntrospectionStyle {
        switch self {
        case .linkedin: .linkedin
        case .spotify, .generic: .none
        }
    }

    public var introspectionURL: String? {
        switch self {
        case .linkedin: "https://www.linkedin.com/oauth/v2/introspectToken"
        case .spotify, .generic: nil
        }
    }
}
