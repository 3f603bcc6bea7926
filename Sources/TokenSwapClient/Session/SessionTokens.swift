/// The tokens of a signed-in session.
struct SessionTokens: Sendable {
    var access: RedactedToken?
    /// On the session's clock; nil when the answer gave no `expires_in`.
    var accessExpiresAt: Double?
    var refresh: RedactedToken?
    /// Whether the store holds `refresh`. Until it does, `access` is not handed out.
    var refreshStored: Bool

    /// From an answer; `keeping` is the refresh token sent, kept when the answer has none
    /// (CONTRACT §2 says a refresh always answers one; an older deployment may not).
    init(_ answer: TokenAnswer, arrivedAt: Double, keeping previous: RedactedToken? = nil) {
        access = answer.accessToken
        accessExpiresAt = answer.expiresInSeconds.map { arrivedAt + Double($0) }
        refresh = answer.refreshToken ?? previous
        refreshStored = false
    }

    /// At launch: only the refresh token survives a restart.
    init(storedRefreshToken: RedactedToken) {
        access = nil
        accessExpiresAt = nil
        refresh = storedRefreshToken
        refreshStored = true
    }
}
