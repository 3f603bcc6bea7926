/// Whether a session can hand out tokens.
public enum SessionStatus: Sendable, Hashable {
    case signedIn
    case signedOut(SignOutReason)
    /// The store could not be read (yet): the user may well be signed in. Ask again.
    case storageUnavailable
}
