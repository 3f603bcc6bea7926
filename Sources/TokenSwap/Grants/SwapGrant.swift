import HTTPCore

/// `POST /v1/swap`: an authorization code for tokens (RFC 6749 §4.1.3). Its steps: decode
/// the fields, inspect the proof (CONTRACT §13), exchange the code with the provider, and
/// answer with the provider's refresh token sealed in a new grant family (§14) bound to
/// the proof's key. Answers by callback, as the refresh does.
final class SwapGrant: CallbackGrant {
    static let outcomeName = "authorization_code"

    let proof: GrantProof
    let upstream: ProviderCall
    let families: GrantFamilies
    let sealer: TokenSealer

    init(proof: GrantProof, upstream: ProviderCall, families: GrantFamilies, sealer: TokenSealer) {
        self.proof = proof
        self.upstream = upstream
        self.families = families
        self.sealer = sealer
    }

    /// The swap for already decoded fields (also the `authorization_code` grant of the
    /// token endpoint, CONTRACT §8, which decodes its body once).
    func answer(
        fields: TokenRequestFields, request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        proof.proving(request, provider: provider, completion: completion) {
            [self] inspection, completion in
            exchange(fields, provider: provider, inspection: inspection, completion: completion)
        }
    }

    /// The code exchanged with the provider, and its first tokens answered.
    private func exchange(
        _ fields: TokenRequestFields, provider: Provider, inspection: DPoPInspection?,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        let finish = GrantAnswer.answering(
            provider: provider, grant: Self.outcomeName, completion)
        let grant: TokenGrant
        let binding: [UInt8]?
        do throws(GrantError) {
            guard let code = fields["code"] else { throw .invalidRequest("code is missing") }
            grant = TokenGrant.authorizationCode(
                code: code, redirectURI: provider.redirectURI(forRequested: fields["redirect_uri"]),
                codeVerifier: fields["code_verifier"])
            binding = try proof.binding(inspection, bound: nil, provider: provider)
        } catch {
            return finish(.failure(error))
        }
        upstream.exchange(
            grant, with: provider,
            then: { [self] (tokens) throws(GrantError) in
                // The consent starts a grant family (CONTRACT §14).
                try GrantAnswer.firstTokens(
                    tokens, provider: provider, binding: binding, families: families,
                    sealer: sealer)
            }, completion: finish)
    }
}
