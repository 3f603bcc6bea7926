import HTTPCore
import Sealing

extension GrantEndpoints {
    /// `POST /v1/<name>/token` (RFC 6749 §3.2, CONTRACT §8): one token endpoint for
    /// standard client libraries. `grant_type` picks the swap, the refresh or (for providers
    /// with a device endpoint) the device-token path, which then answer exactly as
    /// `/v1/swap`, `/v1/refresh` and `/device/token` do. Clients are public
    /// (`token_endpoint_auth_method` `none`): a `client_id` they send must be the
    /// provider's, else `401 invalid_client` (§5.2).
    ///
    /// The body is decoded once, with the fields of every grant, and the grant's path
    /// reads those fields. Answers by callback, as swap and refresh do (standard clients
    /// refresh here); the device grant, which awaits, runs as `Endpoint.async` runs it: a
    /// task on the connection's loop (`context.server.executor`).
    public func token(
        _ request: HTTPRequest, provider: Provider, context: ServiceContext,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        let fields: TokenRequestFields
        let grantType: String
        do throws(GrantError) {
            fields = try TokenRequestFields.decode(
                request, reading: TokenRequestFields.tokenRequestNames)
            // In the body (RFC 6749 §2.3.1's public clients) or as Basic credentials with
            // an empty secret (requests-oauthlib's default); the secret is not read.
            let basic = request.headers["Authorization"].flatMap(BasicCredentials.init)
            for clientID in [fields["client_id"], basic?.clientID]
            where clientID.map({ $0 != provider.clientID }) ?? false {
                throw GrantError.invalidClient
            }
            guard let value = fields["grant_type"] else {
                throw GrantError.invalidRequest("grant_type is missing")
            }
            grantType = value
        } catch {
            // Refused before any grant ran, logged like the others.
            return completion(Self.answer(.failure(error), provider: provider, grant: "token"))
        }
        switch grantType {
        case TokenGrant.authorizationCodeType:
            swap(fields: fields, request: request, provider: provider, completion: completion)
        case TokenGrant.refreshTokenType:
            refresh(fields: fields, request: request, provider: provider, completion: completion)
        case ProviderDialect.deviceGrantType where provider.device != nil:
            Endpoint.async(.grant) { [self] request, _ in
                let inspection = await inspectDPoP(request, provider: provider)
                let answer = await Self.answer(provider: provider, grant: "device_code") {
                    () async throws(GrantError) in
                    try await pollDevice(fields, provider: provider, inspection: inspection)
                }
                return decorated(answer, inspection)
            }(request, context, completion)
        default:
            completion(
                Self.answer(.failure(.unsupportedGrantType), provider: provider, grant: "token"))
        }
    }
}

/// Client credentials from `Authorization: Basic …` (RFC 6749 §2.3.1): base64 of the
/// form-encoded id, `:`, and the form-encoded secret. Holds a secret: never printed.
package struct BasicCredentials: Sendable, CustomStringConvertible {
    package let clientID: String
    package let secret: String

    /// nil when the header is not Basic or does not decode. Unused base64 bits are
    /// ignored, as clients' encoders differ there.
    package init?(authorization: String) {
        guard authorization.lowercased().hasPrefix("basic "),
            let decoded = Base64.decode(
                String(authorization.dropFirst(6)).trimmingWhitespace(), ignoringUnusedBits: true),
            let colon = decoded.firstIndex(of: UInt8(ascii: ":")),
            let id = try? FormURLEncoding.decode(Array("v=".utf8) + decoded[..<colon]).first?
                .value,
            let secret = try? FormURLEncoding.decode(Array("v=".utf8) + decoded[(colon + 1)...])
                .first?.value
        else { return nil }
        clientID = id
        self.secret = secret
    }

    package var description: String { "BasicCredentials(\(clientID))" }
}
