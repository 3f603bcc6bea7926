import HTTPClient
import HTTPCore

extension Provider {
    /// The request that asks this provider about `token`, per its introspection style
    /// (CONTRACT §8); nil when the style cannot tell about this kind of token.
    func introspectionRequest(for token: LifecycleToken) -> HTTPClientRequest? {
        guard let url = lifecycle.introspectionURL else { return nil }
        switch lifecycle.introspectionStyle {
        case .none:
            return nil
        case .rfc7662:
            // RFC 7662 §2.1: the token, its hint, and the client's authentication.
            return formRequest(
                to: url, [("token", token.value), ("token_type_hint", token.typeHint)],
                authenticated: true)
        case .linkedin:
            // LinkedIn's introspectToken takes the credentials in the body whatever the
            // token endpoint wants, and knows access tokens only.
            guard case .accessToken(let value) = token else { return nil }
            return formRequest(
                to: url,
                [
                    ("client_id", clientID), ("client_secret", clientSecret.revealed),
                    ("token", value),
                ], authenticated: false)
        }
    }

    /// The provider's answer to an introspection request, in RFC 7662's shape.
    /// A 2xx that is not a JSON object, a 5xx, or a 4xx that is not about the token (our
    /// credentials refused) is the provider failing: 502, as on the token endpoint.
    func introspectionResult(_ response: HTTPResponse, now: Int)
        throws(TokenEndpointError) -> IntrospectionResult
    {
        let parsed = try? JSONParser.parse(response.body)
        switch response.status.code {
        case 200..<300:
            guard case .object(let members)? = parsed else {
                throw .upstreamError(reason: "introspection answer is not a JSON object")
            }
            return try interpretIntrospection(members, now: now)
        case 429:
            throw .providerThrottled(
                retryAfter: ProviderTokenResponse.retryAfter(response.headers), body: nil)
        case 400 where ProviderTokenResponse.isOAuthError(parsed):
            // Token-info endpoints (LinkedIn, Google) answer 400 `invalid_token` for a dead one.
            return .inactive
        default:
            throw .upstreamError(reason: "introspection answered \(response.status.code)")
        }
    }

    private func interpretIntrospection(_ members: [JSONValue.Member], now: Int)
        throws(TokenEndpointError) -> IntrospectionResult
    {
        let object = JSONValue.object(members)
        switch lifecycle.introspectionStyle {
        case .rfc7662, .none:
            guard case .bool(let active)? = object["active"] else {
                throw .upstreamError(reason: "introspection answer has no boolean active")
            }
            return active ? .active(normalising: members) : .inactive
        case .linkedin:
            // `status` says `active`, `expired` or `revoked`; `expires_at` is RFC 7662's `exp`.
            guard case .bool(true)? = object["active"],
                object["status"]?.stringValue.map({ $0 == "active" }) ?? true
            else { return .inactive }
            var renamed = members.filter { $0.name != "exp" && $0.name != "iat" }
            if let expiresAt = object["expires_at"] { renamed.append(.init("exp", expiresAt)) }
            if let createdAt = object["created_at"] { renamed.append(.init("iat", createdAt)) }
            return Self.unexpired(.active(normalising: renamed), now: now)
        }
    }

    /// `.inactive` when the normalised `exp` has passed: token-info endpoints describe a
    /// token without deciding whether it is still usable.
    static func unexpired(_ result: IntrospectionResult, now: Int) -> IntrospectionResult {
        guard case .active(let members) = result,
            let exp = members.first(where: { $0.name == "exp" }),
            case .number(let text) = exp.value, let seconds = Int(text)
        else { return result }
        return seconds > now ? result : .inactive
    }
}
