import HTTPClient
import HTTPCore

extension Provider {
    /// The request that revokes `token` at this provider, per its revocation style
    /// (CONTRACT §8); nil when the style cannot revoke this kind of token, and then
    /// nothing is sent.
    func revocationRequest(for token: LifecycleToken) -> HTTPClientRequest? {
        guard let url = lifecycle.revocationURL else { return nil }
        switch (lifecycle.revocationStyle, token) {
        case (.none, _):
            return nil
        case (.rfc7009, _):
            // RFC 7009 §2.1: the token, its hint, and the client's authentication.
            return formRequest(
                to: url, [("token", token.value), ("token_type_hint", token.typeHint)],
                authentication: authMethod)
        case (.google, _):
            // Google's /revoke takes the token alone, in the body rather than its documented
            // query string, so it never lands in a URL.
            return formRequest(to: url, [("token", token.value)], authentication: nil)
        case (.github, .accessToken(let value)):
            return githubTokenRequest(.delete, url: url, accessToken: value)
        case (.l2p, .refreshToken(let value)):
            return formRequest(
                to: url, [("grant_type", "invalidate"), ("refresh_token", value)],
                authentication: authMethod)
        case (.github, .refreshToken), (.l2p, .accessToken):
            return nil
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
