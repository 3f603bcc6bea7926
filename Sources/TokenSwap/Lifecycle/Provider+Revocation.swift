import HTTPClient

extension Provider {
    /// The request that revokes `token` at this provider, per its revocation style
    /// (CONTRACT §8); nil when the style cannot revoke this kind of token, and then
    /// nothing is sent.
    func revocationRequest(for token: LifecycleToken) -> HTTPClientRequest? {
        guard let url = lifecycle.revocationURL else { return nil }
        switch lifecycle.revocationStyle {
        case .none:
            return nil
        case .rfc7009:
            // RFC 7009 §2.1: the token, its hint, and the client's authentication.
            return formRequest(
                to: url, [("token", token.value), ("token_type_hint", token.typeHint)],
                authenticated: true)
        }
    }
}
