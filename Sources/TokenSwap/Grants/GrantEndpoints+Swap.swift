import HTTPCore

extension GrantEndpoints {
    /// `POST /v1/swap`: an authorization code for tokens (RFC 6749 §4.1.3). The refresh
    /// token, if the provider issued one, goes back sealed. Answers by callback, as
    /// `refresh` does.
    public func swap(
        _ request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        let finish = Self.answering(provider: provider, grant: "authorization_code", completion)
        let grant: TokenGrant
        do throws(GrantError) {
            let fields = try TokenRequestFields.decode(request)
            guard let code = fields["code"] else { throw .invalidRequest("code is missing") }
            grant = TokenGrant.authorizationCode(
                code: code, redirectURI: provider.redirectURI(forRequested: fields["redirect_uri"]),
                codeVerifier: fields["code_verifier"])
        } catch {
            return finish(.failure(error))
        }
        exchange(grant, with: provider) { [self] exchanged in
            finish(
                Result { () throws(GrantError) in
                    let tokens = try exchanged.get()
                    var sealed: String?
                    if let raw = tokens.refreshToken { sealed = try seal(raw, for: provider) }
                    return Self.success(tokens, refreshToken: sealed)
                })
        }
    }

    /// `swap`, awaited.
    public func swap(_ request: HTTPRequest, provider: Provider) async -> EndpointAnswer {
        await Self.awaiting { swap(request, provider: provider, completion: $0) }
    }
}
