/// A credential store's failure. Carries an OS status or `errno`, never the token.
public enum CredentialStoreError: Error, Sendable, Hashable {
    case unavailable(status: Int32)
}
