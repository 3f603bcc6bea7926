import HTTPClient
import HTTPCore

extension Provider {
    /// The request that asks this provider about `token`, per its introspection style
    /// (CONTRACT §8); nil for style `none`. Token-info endpoints know access tokens only,
    /// so for them nothing is opened (`knowsRefreshTokens`): every value goes as the access
    /// token it may be, and a sealed refresh token is answered inactive by the provider
    /// like any unknown value, so whether a call is made never tells whether it opened.
    func introspectionRequest(for token: LifecycleToken) -> HTTPClientRequest? {
        guard let url = lifecycle.introspectionURL else { return nil }
        switch lifecycle.introspectionStyle {
        case .none:
            return nil
        case .rfc7662:
            // RFC 7662 §2.1: the token, its hint, and the client's authentication.
            return formRequest(
                to: url, [("token", token.value), ("token_type_hint", token.typeHint)],
                authentication: authMethod)
        case .linkedin:
            // LinkedIn's introspectToken takes the credentials in the body whatever the
            // token endpoint wants.
            return formRequest(
                to: url, [("token", token.value)], authentication: .clientSecretPost)
        case .google:
            // In the body rather than the documented query string: never in a URL.
            return formRequest(to: url, [("access_token", token.value)], authentication: nil)
        case .github:
            return githubTokenRequest(.post, url: url, accessToken: token.value)
        case .l2p:
            return formRequest(
                to: url, [("access_token", token.value)], authentication: ClientAuthMethod.none)
        }
    }

    /// The provider's answer to an introspection request, in RFC 7662's shape. A dead
    /// token is inactive however the style says it (RFC 7662 `active:false`, a token-info
    /// 400 `invalid_token`, GitHub's 404/422, L2P's `state`); a 2xx that is not a JSON
    /// object, a 5xx, or a 4xx that is not about the token (our credentials refused) is the
    /// provider failing: 502, as on the token endpoint.
    func introspectionResult(_ response: HTTPResponse, now: Int)
        throws(GrantError) -> IntrospectionResult
    {
        let parsed = try? JSONParser.parse(response.body)
        let github = lifecycle.introspectionStyle == .github
        switch response.status.code {
        case 200..<300:
            guard case .object(let members)? = parsed else {
                throw .upstreamError(reason: "introspection answer is not a JSON object")
            }
            return try interpretIntrospection(members, now: now)
        case 429:
            throw .providerThrottled(
                retryAfterSeconds: ProviderTokenResponse.retryAfterSeconds(response.headers),
                body: nil)
        case 400 where ProviderTokenResponse.isOAuthError(parsed):
            return .inactive
        case 404 where github, 422 where github:
            return .inactive
        default:
            throw .upstreamError(reason: "introspection answered \(response.status.code)")
        }
    }

    private func interpretIntrospection(_ members: [JSONValue.Member], now: Int)
        throws(GrantError) -> IntrospectionResult
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
        case .google:
            // tokeninfo describes any Google token, whoever it was issued to: one issued to
            // another client is not this client's to accept (CONTRACT §15), so `aud` and
            // `azp`, each one sent, must be our client id, and one of them must be sent.
            let audiences = [object["aud"], object["azp"]].compactMap { $0 }
            guard !audiences.isEmpty, audiences.allSatisfy({ $0.stringValue == clientID }) else {
                return .inactive
            }
            // `azp` is the client the token was issued to; numbers are strings.
            var renamed = members.filter { $0.name != "client_id" }
            if let client = object["azp"] ?? object["aud"] {
                renamed.insert(.init("client_id", client), at: 0)
            }
            return Self.unexpired(.active(normalising: renamed), now: now)
        case .github:
            var renamed: [JSONValue.Member] = []
            if case .array(let scopes)? = object["scopes"] {
                let names = scopes.compactMap(\.stringValue)
                renamed.append(.init("scope", .string(names.joined(separator: " "))))
            }
            if let client = object["app"]?["client_id"] {
                renamed.append(.init("client_id", client))
            }
            if let login = object["user"]?["login"] { renamed.append(.init("username", login)) }
            if let expires = object["expires_at"]?.stringValue,
                let seconds = Self.epochSeconds(iso8601: expires)
            {
                renamed.append(.init("exp", .number(String(seconds))))
            }
            return Self.unexpired(.active(normalising: renamed), now: now)
        case .l2p:
            guard object["state"]?.stringValue == "valid" else { return .inactive }
            var renamed = members.filter { $0.name != "exp" }
            if let seconds = object["expires_in"].flatMap(ProviderTokenResponse.normalisedExpiresIn)
            {
                renamed.append(.init("exp", .number(String(now + seconds))))
            }
            return .active(normalising: renamed)
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

    /// `2011-09-06T20:39:23Z` (GitHub's `expires_at`, RFC 3339 in UTC) as seconds since
    /// the epoch; nil for anything else.
    static func epochSeconds(iso8601 text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54,
            bytes[13] == 0x3A, bytes[16] == 0x3A, bytes[19] == 0x5A
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16),
            let second = number(17..<19), (1...12).contains(month), (1...31).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        return HTTPDate.unixSeconds(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }
}

extension IntrospectionStyle {
    /// Whether the provider can be asked about a refresh token (RFC 7662 endpoints can),
    /// so that a sealed one is worth opening.
    var knowsRefreshTokens: Bool { self == .rfc7662 }
}
