import HTTPCore
import Sealing

extension GrantEndpoints {
    /// `POST /v1/swap`: an authorization code for tokens (RFC 6749 §4.1.3). The refresh
    /// token, if the provider issued one, goes back sealed. Answers by callback, as
    /// `refresh` does.
    public func swap(
        _ request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        guard
            let fields = Self.decodedFields(
                request, provider: provider, grant: "authorization_code", completion)
        else { return }
        swap(fields: fields, request: request, provider: provider, completion: completion)
    }

    /// The swap for already decoded fields (also the `authorization_code` grant of the
    /// token endpoint, CONTRACT §8, which decodes its body once). With a valid DPoP proof
    /// the sealed refresh token is bound to its key (CONTRACT §13).
    func swap(
        fields: TokenRequestFields, request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        provingDPoP(request, provider: provider, completion: completion) {
            [self] inspection, completion in
            swap(fields: fields, provider: provider, inspection: inspection, completion: completion)
        }
    }

    private func swap(
        fields: TokenRequestFields, provider: Provider, inspection: DPoPInspection?,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        let finish = Self.answering(provider: provider, grant: "authorization_code", completion)
        let grant: TokenGrant
        let binding: [UInt8]?
        do throws(GrantError) {
            guard let code = fields["code"] else { throw .invalidRequest("code is missing") }
            grant = TokenGrant.authorizationCode(
                code: code, redirectURI: provider.redirectURI(forRequested: fields["redirect_uri"]),
                codeVerifier: fields["code_verifier"])
            binding = try dpopBinding(inspection, bound: nil, provider: provider)
        } catch {
            return finish(.failure(error))
        }
        upstream.exchange(grant, with: provider) { [self] exchanged in
            finish(
                Result { () throws(GrantError) in
                    let tokens = try exchanged.get()
                    // The consent starts a grant family (CONTRACT §14).
                    var sealed: String?
                    var grant: SealedGrant?
                    if let raw = tokens.refreshToken {
                        let family = try families.newGrant(thumbprint: binding)
                        sealed = try sealer.seal(raw, for: provider, grant: family)
                        grant = family
                    }
                    return Self.success(
                        families.withLifetime(tokens, grant: grant, provider: provider),
                        refreshToken: sealed
                    )
                })
        }
    }

}
