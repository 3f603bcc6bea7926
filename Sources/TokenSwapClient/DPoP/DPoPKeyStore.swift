/// Where a session keeps its DPoP key (CONTRACT §13), beside its credentials: the key is
/// as long-lived as the refresh token bound to it, and useless without it.
///
/// - `KeychainDPoPKeyStore` (Apple platforms): a Secure Enclave key where the device has
///   one, else a software key, in the Keychain.
/// - `FileDPoPKeyStore`: a software key in a 0600 file (Linux, command-line programs).
/// - `MemoryDPoPKeyStore`: forgets at exit (tests, previews).
///
/// Like a `CredentialStore`, `load` answers nil for "no key" and throws
/// `CredentialStoreError.unavailable` for "cannot tell right now"; a session treats the
/// second as transient and the first, while it holds a token bound to a key, as the end
/// of the session (`SignOutReason.dpopKeyLost`).
public protocol DPoPKeyStore: Sendable {
    func load() async throws -> DPoPKey?
    /// Makes a new key, stores it in place of any other, and returns it.
    func create() async throws -> DPoPKey
    func remove() async throws
}
