/// Known providers whose token endpoint and client authentication are filled in; `generic`
/// fills in nothing.
public enum ProviderPreset: String, Sendable, Hashable, CaseIterable {
    case spotify
    case linkedin
    case generic

    public var tokenURL: String? {
        switch self {
        case .spotify: "https://accounts.spotify.com/api/token"
        case .linkedin: "https://www.linkedin.com/oauth/v2/accessToken"
        case .generic: nil
        }
    }

    public var authMethod: ClientAuthMethod? {
        switch self {
        case .spotify: .clientSecretBasic
        case .linkedin: .clientSecretPost
        case .generic: nil
        }
    }

    /// The preset a provider gets when none is configured: the one of the same name, if any.
    public static func implied(byName name: String) -> ProviderPreset {
        ProviderPreset(rawValue: name) ?? .generic
    }
}
