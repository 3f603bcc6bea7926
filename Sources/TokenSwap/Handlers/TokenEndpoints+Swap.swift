import HTTPCore

extension TokenEndpoints {
    /// `POST /v1/swap`: an authorization code for tokens (RFC 6749 §4.1.3). The refresh
    /// token, if the provider issued one, goes back sealed.
    public func swap(_ request: HTTPRequest, provider: Provider) async -> EndpointAnswer {
        await answer(provider: provider, grant: "authorization_code") {
            () async throws(TokenEndpointError) in
            let fields = try TokenRequestFields.decode(request)
            guard let code = fields["code"] else { throw .invalidRequest("code is missing") }
            let grant = TokenGrant.authorizationCode(
                code: code, redirectURI: provider.redirectURI(forRequested: fields["redirect_uri"]),
                codeVerifier: fields["code_verifier"])
            let tokens = try await exchange(grant, with: provider)
            var sealed: String?
            if let raw = tokens.refreshToken { sealed = try seal(raw, for: provider) }
            return Self.success(tokens, refreshToken: sealed)
        }
    }
}
