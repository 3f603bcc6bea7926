import HTTPCore
import TokenSwap
import Transport

#if canImport(Glibc)
    import Glibc
#endif

extension SandboxProvider {
    /// The revocation endpoint (RFC 7009 §2): a refresh token ends its whole grant (every
    /// refresh and access token issued from it, §2.1), an access token ends itself. A
    /// token that is unknown, expired or another client's is answered `200` all the same
    /// (§2.2). The magic failure values (see `SandboxMagicValue`) fail as they do on
    /// the token endpoint, so a client can try its retry path.
    func answerRevocation(headers: HTTPHeaders, body: [UInt8]) -> TokenAnswer {
        let (token, client): (String, Client)
        switch tokenQuery(headers: headers, body: body, field: "token") {
        case .asked(let asked, let authenticated): (token, client) = (asked, authenticated)
        case .answered(let answer): return answer
        }
        let now = clock()
        state.withLock { state in
            if case .live(let grant) = state.refreshTokens.lookup(token, now: now),
                grant.clientID == client.clientID
            {
                state.revokeFamily(grant.family)
            } else if case .live(let grant) = state.accessTokens.lookup(token, now: now),
                grant.clientID == client.clientID
            {
                state.accessTokens.remove(token)
            }
        }
        return .now(HTTPResponse(status: .ok, headers: TokenResponseHeaders.base))
    }

    /// The introspection endpoint (RFC 7662 §2): live access and refresh tokens of the
    /// calling client are `active` with `scope` and `client_id` (access tokens also `token_type`,
    /// `exp`, `iat`);
    /// anything else is `{"active":false}` and nothing more (§2.2).
    func answerIntrospection(headers: HTTPHeaders, body: [UInt8]) -> TokenAnswer {
        let (token, client): (String, Client)
        switch tokenQuery(headers: headers, body: body, field: "token") {
        case .asked(let asked, let authenticated): (token, client) = (asked, authenticated)
        case .answered(let answer): return answer
        }
        let now = clock()
        let members: [JSONValue.Member]? = state.withLock { state in
            if case .live(let grant) = state.accessTokens.lookup(token, now: now),
                grant.clientID == client.clientID
            {
                return [
                    .init("active", .bool(true)), .init("scope", .string(grant.scope)),
                    .init("client_id", .string(grant.clientID)),
                    .init("token_type", .string("Bearer")),
                    .init("exp", .number(String(grant.expiresAt))),
                    .init("iat", .number(String(grant.issuedAt))),
                ]
            }
            if case .live(let grant) = state.refreshTokens.lookup(token, now: now),
                grant.clientID == client.clientID
            {
                // RFC 7662 §2.2's token_type is an access token's type: none here.
                return [
                    .init("active", .bool(true)), .init("scope", .string(grant.scope)),
                    .init("client_id", .string(grant.clientID)),
                ]
            }
            return nil
        }
        let body = JSONValue.object(members ?? [.init("active", .bool(false))])
        return .now(
            HTTPResponse(status: .ok, headers: TokenResponseHeaders.base, body: body.serialized))
    }

    /// What a revocation or introspection request asks about, from the authenticated
    /// client, or the answer that ends it here: the client refused, the token missing, or a
    /// magic failure value.
    enum TokenQuery {
        case asked(String, Client)
        case answered(TokenAnswer)
    }

    func tokenQuery(headers: HTTPHeaders, body: [UInt8], field: String) -> TokenQuery {
        let fields: [String: String]
        let client: Client
        switch clientRequest(headers: headers, body: body) {
        case .accepted(let accepted, let authenticated):
            (fields, client) = (accepted, authenticated)
        case .refused(let response): return .answered(.now(response))
        }
        guard let token = fields[field], !token.isEmpty else {
            return .answered(
                .now(Self.oauthError(.badRequest, "invalid_request", "\(field) is missing")))
        }
        if let failure = magicFailure(token) { return .answered(failure) }
        return .asked(token, client)
    }

    /// A transient magic failure (429, 500, slow, garbage) for `token`; nil for the rest,
    /// the "invalid" ones included: these endpoints answer an invalid token normally.
    func magicFailure(_ token: String) -> TokenAnswer? {
        guard let magic = SandboxMagicValue(rawValue: token), magic != .invalid,
            magic != .expired
        else { return nil }
        return failure(magic)
    }
}
