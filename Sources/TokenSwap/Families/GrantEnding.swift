/// Why a sealed refresh token that opened is refused without a provider call
/// (CONTRACT §14): `GrantError.grantEnded`, a `400 invalid_grant` like every dead grant, so
/// clients sign the user out.
public enum GrantEnding: String, Sendable, Equatable {
    /// Its family was revoked: by `/revoke` (a sign-out), or because an older generation
    /// came back after the replay window (reuse detection).
    case revoked
    /// The provider's refresh-token lifetime has run out since the grant began.
    case expired

    /// The `error_description`: what the user must do, never which token or family.
    var errorDescription: String {
        switch self {
        case .revoked: "the grant was revoked: sign in again"
        case .expired: "the grant has expired: sign in again"
        }
    }
}
