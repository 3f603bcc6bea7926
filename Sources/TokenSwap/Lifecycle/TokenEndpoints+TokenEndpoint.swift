import HTTPCore

extension TokenEndpoints {
    /// `POST /v1/<name>/token` (RFC 6749 §3.2, CONTRACT §8): one token endpoint for
    /// standard client libraries. `grant_type` picks the swap, the refresh or (for providers
    /// with a device endpoint) the device-token path, which then answer exactly as
    /// `/v1/swap`, `/v1/refresh` and `/device/token` do. Clients are public
    /// (`token_endpoint_auth_method` `none`): a `client_id` they send must be the
    /// provider's, else `401 invalid_client` (§5.2).
    public func token(_ request: HTTPRequest, provider: Provider) async -> EndpointAnswer {
        let grantType: String
        do throws(TokenEndpointError) {
            let fields = try TokenRequestFields.decode(
                request, reading: TokenRequestFields.tokenEndpointNames)
            // In the body (RFC 6749 §2.3.1's public clients) or as Basic credentials with
            // an empty secret (requests-oauthlib's default); the secret is not read.
            let basic = request.headers["Authorization"].flatMap(BasicCredentials.init)
            for clientID in [fields["client_id"], basic?.clientID]
            where clientID.map({ $0 != provider.clientID }) ?? false {
                throw TokenEndpointError.invalidClient
            }
            guard let value = fields["grant_type"] else {
                throw TokenEndpointError.invalidRequest("grant_type is missing")
            }
            grantType = value
        } catch {
            return await refused(request, provider: provider, error)
        }
        switch grantType {
        case TokenGrant.authorizationCodeType: return await swap(request, provider: provider)
        case TokenGrant.refreshTokenType: return await refresh(request, provider: provider)
        case ProviderDialect.deviceGrantType where provider.device != nil:
            return await deviceToken(request, provider: provider)
        default: return await refused(request, provider: provider, .unsupportedGrantType)
        }
    }

    /// A token endpoint request refused before any grant ran, logged like the others.
    private func refused(_ request: HTTPRequest, provider: Provider, _ error: TokenEndpointError)
        async -> EndpointAnswer
    {
        await answer(provider: provider, grant: "token") {
            () async throws(TokenEndpointError) -> HTTPResponse in throw error
        }
    }
}
