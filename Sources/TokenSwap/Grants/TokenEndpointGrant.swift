import HTTPCore
import HTTPServer

/// `POST /v1/<name>/token` (RFC 6749 §3.2, CONTRACT §8): one token endpoint for standard
/// client libraries. Its steps: decode the body once, with the fields of every grant;
/// check the client (public clients, `token_endpoint_auth_method` `none`: a `client_id` they
/// send must be the provider's, else `401 invalid_client`, §5.2); then `grant_type` picks
/// the swap, the refresh or (for providers with a device endpoint) the device poll, which
/// read those fields and answer exactly as `/v1/swap`, `/v1/refresh` and `/device/token`
/// do.
///
/// Answers by callback, as swap and refresh do (standard clients refresh here); the device
/// grant, which awaits, runs as `Endpoint.async` runs it: a task on the connection's loop
/// (`context.server.executor`).
final class TokenEndpointGrant: Sendable {
    let swap: SwapGrant
    let refresh: RefreshGrant
    let devicePoll: DevicePollGrant

    init(swap: SwapGrant, refresh: RefreshGrant, devicePoll: DevicePollGrant) {
        self.swap = swap
        self.refresh = refresh
        self.devicePoll = devicePoll
    }

    func answer(
        _ request: HTTPRequest, provider: Provider, context: ServiceContext,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        let fields: TokenRequestFields
        let grantType: String
        do throws(GrantError) {
            fields = try TokenRequestFields.decode(
                request, reading: TokenRequestFields.tokenRequestNames)
            try Self.checkClient(fields, request: request, provider: provider)
            guard let value = fields["grant_type"] else {
                throw GrantError.invalidRequest("grant_type is missing")
            }
            grantType = value
        } catch {
            // Refused before any grant ran, logged like the others.
            return completion(
                GrantAnswer.answer(.failure(error), provider: provider, grant: "token"))
        }
        switch grantType {
        case TokenGrant.authorizationCodeType:
            swap.answer(
                fields: fields, request: request, provider: provider, completion: completion)
        case TokenGrant.refreshTokenType:
            refresh.answer(
                fields: fields, request: request, provider: provider, completion: completion)
        case ProviderDialect.deviceGrantType where provider.device != nil:
            Endpoint.async(.grant) { [devicePoll] request, _ in
                await devicePoll.answer(request, provider: provider, fields: fields)
            }(request, context, completion)
        default:
            completion(
                GrantAnswer.answer(
                    .failure(.unsupportedGrantType), provider: provider, grant: "token"))
        }
    }

    /// A `client_id` sent in the body (RFC 6749 §2.3.1's public clients) or as Basic
    /// credentials with an empty secret (requests-oauthlib's default) must be the
    /// provider's; the secret is not read.
    private static func checkClient(
        _ fields: TokenRequestFields, request: HTTPRequest, provider: Provider
    ) throws(GrantError) {
        let basic = request.headers["Authorization"].flatMap(BasicCredentials.init)
        for clientID in [fields["client_id"], basic?.clientID]
        where clientID.map({ $0 != provider.clientID }) ?? false {
            throw GrantError.invalidClient
        }
    }
}
