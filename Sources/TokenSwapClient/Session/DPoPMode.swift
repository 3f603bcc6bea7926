/// Whether a session proves its requests with a DPoP key (RFC 9449, CONTRACT §13), and
/// where it keeps the key.
///
/// On by default: a deployment whose provider says `optional` (its default) binds the
/// refresh token to the key, and one that says `off` ignores the proof, so a proof never
/// costs an app its sign-in; only `required` refuses requests without one.
public enum DPoPMode: Sendable {
    /// The credential store's own key store (`CredentialStore.dpopKeyStore`): the
    /// Keychain (Secure Enclave where there is one) beside a `KeychainCredentialStore`,
    /// `<path>.dpop-key` beside a `FileCredentialStore`, memory beside a
    /// `MemoryCredentialStore`. A store of the app's own has none unless it says so: then
    /// no proofs.
    case automatic
    /// This key store.
    case keyStore(any DPoPKeyStore)
    /// No proofs. A refresh token already bound to a key stops working (tokenswap answers
    /// `invalid_grant`, and the session signs out).
    case off
}
