/// Why a session has no tokens.
public enum SignOutReason: String, Sendable, Hashable, CustomStringConvertible {
    /// Nothing was ever stored (or the store was empty at launch).
    case neverSignedIn = "never signed in"
    /// The refresh token is dead: tokenswap answered `invalid_grant` (CONTRACT §2: "clients
    /// log the user out on it"). The only server answer that signs a user out.
    case invalidGrant = "invalid_grant"
    /// The access token expired and the sign-in gave no refresh token to get another.
    case noRefreshToken = "no refresh token"
    /// The app called `signOut`.
    case userRequested = "signed out by the app"
    /// The DPoP key the refresh token is bound to is gone from its store (deleted, or the
    /// app restored onto another device): the token cannot be used without it (CONTRACT
    /// §13), so it is not sent at all.
    case dpopKeyLost = "the DPoP key is gone"
    /// The grant reached the end tokenswap announced (`refresh_token_expires_in`, CONTRACT
    /// §14): no refresh can work, so none is sent; the user signs in again.
    case grantExpired = "the grant has expired"

    public var description: String { rawValue }
}
