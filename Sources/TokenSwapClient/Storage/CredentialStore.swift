/// Where a session keeps its refresh token between launches. Only the refresh token is
/// stored, with what the session must know about it (`StoredCredentials`): an access token
/// is short-lived and its lifetime is measured on a monotonic clock that does not survive
/// a restart, so a new launch refreshes once.
///
/// `load` answers nil for "nothing stored" and throws `CredentialStoreError.unavailable`
/// for "cannot tell right now" (a keychain before the first unlock); a session treats the
/// second as a transient state, never as "signed out".
///
/// A store of an app's own needs only `load`, `save(_: RedactedToken)` and `remove`: the
/// rest have defaults that keep the token alone (then the grant's end and the DPoP binding
/// are learnt again from the next answer), and no DPoP key store (a session over it sends
/// proofs only when the app gives it one).
public protocol CredentialStore: Sendable {
    func load() async throws -> RedactedToken?
    /// Replaces what is stored, atomically: after a crash either the old or the new token
    /// is there, never a torn one.
    func save(_ refreshToken: RedactedToken) async throws
    func remove() async throws

    /// The token and what the session knows about it; nil when nothing is stored.
    func loadCredentials() async throws -> StoredCredentials?
    /// Replaces what is stored, atomically, as `save(_: RedactedToken)` does.
    func save(_ credentials: StoredCredentials) async throws
    /// Where a session over this store keeps its DPoP key (CONTRACT §13) unless the app
    /// says otherwise: beside the credentials. nil: no DPoP by default.
    var dpopKeyStore: (any DPoPKeyStore)? { get }
}

extension CredentialStore {
    public func loadCredentials() async throws -> StoredCredentials? {
        try await load().map { StoredCredentials(refreshToken: $0) }
    }

    public func save(_ credentials: StoredCredentials) async throws {
        try await save(credentials.refreshToken)
    }

    public var dpopKeyStore: (any DPoPKeyStore)? { nil }
}
