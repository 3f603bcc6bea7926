/// A session's state inside the actor.
enum SessionState: Sendable {
    /// The store has not been read yet.
    case notLoaded
    /// The store could not be read; it is read again on the next call.
    case storageUnavailable
    case signedOut(SignOutReason)
    case signedIn(SessionTokens)

    var isLoaded: Bool {
        switch self {
        case .notLoaded, .storageUnavailable: false
        case .signedOut, .signedIn: true
        }
    }
}
