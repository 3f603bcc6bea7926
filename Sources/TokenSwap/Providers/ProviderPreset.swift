/// Known providers whose endpoints, client authentication and dialect are filled in;
/// `generic` fills in nothing. Every URL a preset fills can be overridden by its
/// variable (CONTRACT §8).
package enum ProviderPreset: String, Sendable, Hashable, CaseIterable {
    case spotify
    case linkedin
    case google
    case github
    case l2p
    case generic

    /// The RWTH `oauth2waitress` service of the L2P clients (CONTRACT §7).
    static let l2pBase = "https://oauth.campus.rwth-aachen.de/oauth2waitress/oauth2.svc"

    package var tokenURL: String? {
        switch self {
        case .spotify: "https://accounts.spotify.com/api/token"
        case .linkedin: "https://www.linkedin.com/oauth/v2/accessToken"
        case .google: "https://oauth2.googleapis.com/token"
        case .github: "https://github.com/login/oauth/access_token"
        case .l2p: Self.l2pBase + "/token"
        case .generic: nil
        }
    }

    /// The device authorization endpoint (RFC 8628 §3.1), where the provider has one.
    package var deviceAuthorizationURL: String? {
        switch self {
        case .google: "https://oauth2.googleapis.com/device/code"
        case .github: "https://github.com/login/device/code"
        case .l2p: Self.l2pBase + "/code"
        case .spotify, .linkedin, .generic: nil
        }
    }

    /// Client authentication on the token endpoint (swap, refresh, device poll).
    package var authMethod: ClientAuthMethod? {
        switch self {
        case .spotify: .clientSecretBasic
        // Google and GitHub document the secret in the body; L2P clients hold none.
        case .linkedin, .google, .github: .clientSecretPost
        case .l2p: ClientAuthMethod.none
        case .generic: nil
        }
    }

    /// Client authentication on the device authorization request: Google wants the
    /// secret on the poll but not here, GitHub and L2P never take one.
    package var deviceClientAuth: ClientAuthMethod? {
        switch self {
        case .google, .github, .l2p: ClientAuthMethod.none
        case .spotify, .linkedin, .generic: nil
        }
    }

    package var dialect: ProviderDialect {
        self == .l2p ? .l2p : .rfc8628
    }

    /// The preset a provider gets when none is configured: the one of the same name, if any.
    package static func implied(byName name: String) -> ProviderPreset {
        ProviderPreset(rawValue: name) ?? .generic
    }
}
