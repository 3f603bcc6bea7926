extension Provider {
    /// The redirect URI to send upstream for a client that sent `requested` (CONTRACT §3):
    /// the configured one is always allowed, the allow-list adds others by exact string
    /// match, and anything else (or nothing) is replaced by the configured one. Silently,
    /// because a provider rejects a mismatched redirect URI anyway, and SDKs send
    /// whatever their app was built with.
    public func redirectURI(forRequested requested: String?) -> String {
        guard let requested else { return redirectURI }
        if requested == redirectURI || allowedRedirectURIs.contains(requested) {
            return requested
        }
        return redirectURI
    }
}
