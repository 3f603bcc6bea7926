/// Where a session keeps its refresh token between launches. Only the refresh token is
/// stored: an access token is short-lived and its lifetime is measured on a monotonic
/// clock that does not survive a restart, so a new launch refreshes once.
///
/// `load` answers nil for "nothing stored" and throws `CredentialStoreError.unavailable`
/// for "cannot tell right now" (a keychain before the first unlock); a session treats the
/// second as a transient state, never as "signed out".
public protocol CredentialStore: Sendable {
    func load() async throws -> RedactedToken?
    /// Replaces what is stored, atomically: after a crash either the old or the new token
    /// is there, never a torn one.
    func save(_ refreshToken: RedactedToken) async throws
    func remove() async throws
}
