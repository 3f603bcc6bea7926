/// The session's DPoP key (CONTRACT §13): made at sign-in, the same for every request
/// until the session ends, and the end of the session when it is gone.
extension TokenSession {
    /// The key a sign-in (a swap, a device flow) proves with: the one stored, else a new
    /// one. nil without a key store. A store that cannot be used is `storageUnavailable`.
    func keyForSignIn() async throws -> DPoPKey? {
        guard let keyStore else { return nil }
        do {
            if let key = try await keyStore.load() { return key }
            return try await keyStore.create()
        } catch {
            throw TokenSwapClientError.storageUnavailable
        }
    }

    /// What a refresh proves with.
    enum RefreshKey {
        /// This key (nil: no proof).
        case use(DPoPKey?)
        /// The token is bound to a key the store no longer has (removed, or replaced by
        /// another): it cannot refresh, so it is not sent.
        case lost
        /// The key store cannot be read now (a keychain before the first unlock).
        case unavailable
    }

    /// The stored key when the token is bound to it or to none (a token from before DPoP,
    /// or from `signIn(with:)`, which the proof now binds); a new key when none is stored
    /// and the token is unbound.
    func refreshKey(for tokens: SessionTokens) async -> RefreshKey {
        guard let keyStore else { return .use(nil) }
        do {
            switch (try await keyStore.load(), tokens.dpopKeyThumbprint) {
            case (let key?, nil):
                return .use(key)
            case (let key?, let bound?):
                return key.thumbprint == bound ? .use(key) : .lost
            case (nil, _?):
                return .lost
            case (nil, nil):
                return .use(try await keyStore.create())
            }
        } catch {
            return .unavailable
        }
    }
}
