/// What the service asks the provider's token endpoint for (RFC 6749 §4.1.3, §6).
/// Holds a code or a raw provider refresh token: never logged, never printed.
public enum TokenGrant: Sendable, Equatable, CustomStringConvertible {
    case authorizationCode(code: String, redirectURI: String, codeVerifier: String?)
    case refreshToken(String)

    public static let authorizationCodeType = "authorization_code"
    public static let refreshTokenType = "refresh_token"

    public var grantType: String {
        switch self {
        case .authorizationCode: Self.authorizationCodeType
        case .refreshToken: Self.refreshTokenType
        }
    }

    public var description: String { "TokenGrant(\(grantType))" }
}
