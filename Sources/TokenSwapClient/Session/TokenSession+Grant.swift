import Foundation

/// The grant's lifetime (CONTRACT §14): tokenswap's `refresh_token_expires_in`, counted on
/// the wall clock from the answer's arrival and kept with the credentials, so it survives
/// a restart. A device clock set forward moves the end nearer; nothing is sent either way.
extension TokenSession {
    /// When the grant ends, after which the user must sign in again; nil when tokenswap
    /// did not say (or there is no session).
    public func grantExpiresAt() async -> Date? {
        try? await loadIfNeeded()
        guard case .signedIn(let tokens) = state, let end = tokens.grantExpiresAt else {
            return nil
        }
        return Date(timeIntervalSince1970: Double(end))
    }

    /// Seconds until the grant ends (never below zero); nil when unknown.
    public func grantTimeLeftSeconds() async -> Double? {
        try? await loadIfNeeded()
        guard case .signedIn(let tokens) = state, let end = tokens.grantExpiresAt else {
            return nil
        }
        return max(0, Double(end) - clock.wallNow())
    }

    /// After the grant's end the session signs out (`grantExpired`) and throws, with no
    /// call to tokenswap, which would only answer `invalid_grant`; before it, the warning.
    func checkGrant() async throws {
        guard case .signedIn(let tokens) = state, let end = tokens.grantExpiresAt else { return }
        guard Double(end) > clock.wallNow() else {
            // Signed out in memory whether or not the store answers.
            try? await endSession(.grantExpired)
            throw TokenSwapClientError.signedOut(.grantExpired)
        }
        warnIfGrantEndsSoon()
    }

    /// `grantEndingSoon` once, when less than `grantEndingWarningSeconds` are left; again
    /// only for a grant that had more left in between (a new sign-in).
    func warnIfGrantEndsSoon() {
        guard case .signedIn(let tokens) = state, let end = tokens.grantExpiresAt else { return }
        let left = Double(end) - clock.wallNow()
        guard left < configuration.grantEndingWarningSeconds else {
            grantWarned = false
            return
        }
        guard !grantWarned, left > 0 else { return }
        grantWarned = true
        emit(.grantEndingSoon(timeLeftSeconds: left))
    }
}
