import HTTPClient
import HTTPCore

extension Provider {
    /// The request that revokes `token` at this provider, per its revocation style
    /// (CONTRACT §8); nil for style `none`, whatever the token. Every other style gets one
    /// for every token: a kind the style cannot revoke goes as the kind it can (GitHub
    /// revokes access tokens only, L2P refresh tokens only), which the provider answers as
    /// invalid, so whether a call is made never tells whether the token opened.
    func revocationRequest(for token: LifecycleToken) -> HTTPClientRequest? {
        guard let url = lifecycle.revocationURL else { return nil }
        switch lifecycle.revocationStyle {
        case .none:
            return nil
        case .rfc7009:
            // RFC 7009 §2.1: the token, its hint, and the client's authentication.
            return formRequest(
                to: url, [("token", token.value), ("token_type_hint", token.typeHint)],
                authentication: authMethod)
        case .google:
            // Google's /revoke takes the token alone, in the body rather than its documented
            // query string, so it never lands in a URL.
            return formRequest(to: url, [("token", token.value)], authentication: nil)
        case .github:
            return githubTokenRequest(.delete, url: url, accessToken: token.value)
        case .l2p:
            return formRequest(
                to: url, [("grant_type", "invalidate"), ("refresh_token", token.value)],
                authentication: authMethod)
        }
    }

    /// GitHub's token API (`DELETE` revokes, `POST` checks): Basic auth with the client
    /// credentials, the access token in a JSON body, never in the URL.
    func githubTokenRequest(_ method: HTTPMethod, url: UpstreamURL, accessToken: String)
        -> HTTPClientRequest
    {
        HTTPClientRequest(
            method: method, origin: url.origin, target: url.target,
            headers: HTTPHeaders([
                ("Content-Type", "application/json"),
                ("Accept", "application/vnd.github+json"),
                ("Authorization", basicCredentials.revealed),
                // GitHub's API refuses requests without a User-Agent.
                ("User-Agent", "tokenswap"),
            ]),
            body: JSONValue.object([.init("access_token", .string(accessToken))]).serialized)
    }
}

extension RevocationStyle {
    /// Whether the provider's API takes refresh tokens, so that a sealed one is worth
    /// opening; GitHub's takes access tokens only, and style `none` sends nothing.
    var revokesRefreshTokens: Bool {
        switch self {
        case .rfc7009, .google, .l2p: true
        case .github, .none: false
        }
    }
}
