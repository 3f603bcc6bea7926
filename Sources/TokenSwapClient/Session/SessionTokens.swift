/// The tokens of a signed-in session.
struct SessionTokens: Sendable {
    var access: RedactedToken?
    /// On the session's clock; nil when the answer gave no `expires_in`.
    var accessExpiresAt: Double?
    var refresh: RedactedToken?
    /// Whether the store holds `refresh`. Until it does, `access` is not handed out.
    var refreshStored: Bool
    /// When the grant ends (CONTRACT §14), in whole seconds since 1970 on the device's
    /// wall clock, which outlives a restart; nil when unknown.
    var grantExpiresAt: Int?
    /// The thumbprint of the DPoP key `refresh` was obtained with and so is bound to
    /// (CONTRACT §13); nil when it was obtained without a proof.
    var dpopKeyThumbprint: String?

    /// From an answer; `keeping` is the refresh token sent, kept when the answer has none
    /// (CONTRACT §2 says a refresh always answers one; an older deployment may not).
    /// `wallArrivedAt` is when it arrived on the wall clock, which the grant's end counts
    /// from; `boundTo` the thumbprint of the key that proved the request.
    init(
        _ answer: TokenAnswer, arrivedAt: Double, wallArrivedAt: Double,
        keeping previous: RedactedToken? = nil, boundTo thumbprint: String?
    ) {
        access = answer.accessToken
        accessExpiresAt = answer.expiresInSeconds.map { arrivedAt + Double($0) }
        refresh = answer.refreshToken ?? previous
        refreshStored = false
        grantExpiresAt = answer.refreshTokenExpiresInSeconds.map {
            let (end, overflow) = TokenSwapBackend.seconds(wallArrivedAt).addingReportingOverflow(
                $0)
            return overflow ? .max : end
        }
        dpopKeyThumbprint = thumbprint
    }

    /// At launch: only the refresh token and what is known of it survive a restart.
    init(stored: StoredCredentials) {
        access = nil
        accessExpiresAt = nil
        refresh = stored.refreshToken
        refreshStored = true
        grantExpiresAt = stored.grantExpiresAtEpochSeconds
        dpopKeyThumbprint = stored.dpopKeyThumbprint
    }

    /// What the store keeps of these tokens; nil without a refresh token.
    var stored: StoredCredentials? {
        refresh.map {
            StoredCredentials(
                refreshToken: $0, grantExpiresAtEpochSeconds: grantExpiresAt,
                dpopKeyThumbprint: dpopKeyThumbprint)
        }
    }
}
