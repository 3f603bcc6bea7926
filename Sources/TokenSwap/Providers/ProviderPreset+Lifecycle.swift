extension ProviderPreset {
    /// Where the provider's users authorize an app (RFC 6749 §3.1); L2P has only the
    /// device flow.
    package var authorizeURL: String? {
        switch self {
        case .spotify: "https://accounts.spotify.com/authorize"
        case .linkedin: "https://www.linkedin.com/oauth/v2/authorization"
        case .google: "https://accounts.google.com/o/oauth2/v2/auth"
        case .github: "https://github.com/login/oauth/authorize"
        case .l2p, .generic: nil
        }
    }

    /// Spotify has no revocation API; LinkedIn has none for 3-legged member tokens.
    package var revocationStyle: RevocationStyle {
        switch self {
        case .google: .google
        case .github: .github
        case .l2p: .l2p
        case .spotify, .linkedin, .generic: .none
        }
    }

    /// `{client_id}` is replaced by the provider's client id.
    package var revocationURL: String? {
        switch self {
        case .google: "https://oauth2.googleapis.com/revoke"
        case .github: Self.githubTokenAPI
        case .l2p: Self.l2pBase + "/token"
        case .spotify, .linkedin, .generic: nil
        }
    }

    package var introspectionStyle: IntrospectionStyle {
        switch self {
        case .linkedin: .linkedin
        case .google: .google
        case .github: .github
        case .l2p: .l2p
        case .spotify, .generic: .none
        }
    }

    package var introspectionURL: String? {
        switch self {
        case .linkedin: "https://www.linkedin.com/oauth/v2/introspectToken"
        case .google: "https://oauth2.googleapis.com/tokeninfo"
        case .github: Self.githubTokenAPI
        case .l2p: Self.l2pBase + "/tokeninfo"
        case .spotify, .generic: nil
        }
    }

    /// GitHub's OAuth app token API: `POST` checks a token, `DELETE` revokes it.
    static let githubTokenAPI = "https://api.github.com/applications/{client_id}/token"
}
