/// A token the client asks tokenswap to revoke or introspect, as the provider is to see
/// it: a raw refresh token (opened from the client's sealed one) or an access token as
/// the client sent it. Never logged or printed.
package enum LifecycleToken: Sendable, Equatable, CustomStringConvertible {
    case refreshToken(String)
    case accessToken(String)

    package var value: String {
        switch self {
        case .refreshToken(let token), .accessToken(let token): token
        }
    }

    /// RFC 7009 §2.1 / RFC 7662 §2.1 `token_type_hint` (RFC 7009 §4.1.2 registry).
    package var typeHint: String {
        switch self {
        case .refreshToken: "refresh_token"
        case .accessToken: "access_token"
        }
    }

    package var description: String { "LifecycleToken(\(typeHint))" }
}
