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

    public var description: String { rawValue }
}
