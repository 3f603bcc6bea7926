import HTTPCore
import TokenSwap
import Transport

#if canImport(Glibc)
    import Glibc
#endif

extension SandboxProvider {
    /// L2P's `grant_type=invalidate&refresh_token=…` on the token endpoint (CONTRACT §7):
    /// the grant ends as with RFC 7009. Answered `status: ok` whether or not the token was
    /// live, as revocation must be (RFC 7009 §2.2).
    func answerInvalidation(_ fields: [String: String], client: Client) -> TokenAnswer {
        guard let token = fields["refresh_token"], !token.isEmpty else {
            return .now(Self.l2pStatus("error: refresh token missing."))
        }
        if let failure = magicFailure(token) { return failure }
        let now = clock()
        state.withLock { state in
            if case .live(let grant) = state.refreshTokens.lookup(token, now: now),
                grant.clientID == client.clientID
            {
                state.revokeFamily(grant.family)
            }
        }
        return .now(Self.l2pStatus("ok"))
    }

    /// L2P's `tokeninfo` (`client_id`, `access_token`): `state: "valid"` with `scope` and
    /// the seconds left as `expires_in` for a live access token of the calling client,
    /// `state: "invalid"` otherwise.
    func answerTokenInfo(headers: HTTPHeaders, body: [UInt8]) -> TokenAnswer {
        let (token, client): (String, Client)
        switch tokenQuery(headers: headers, body: body, field: "access_token") {
        case .asked(let asked, let authenticated): (token, client) = (asked, authenticated)
        case .answered(let answer): return answer
        }
        let now = clock()
        let grant: AccessGrant? = state.withLock { state in
            guard case .live(let grant) = state.accessTokens.lookup(token, now: now),
                grant.clientID == client.clientID
            else { return nil }
            return grant
        }
        guard let grant else {
            return .now(Self.l2pStatus("ok", [.init("state", .string("invalid"))]))
        }
        let left = max(0, grant.expiresAt - Int(wallClock.now()))
        return .now(
            Self.l2pStatus(
                "ok",
                [
                    .init("state", .string("valid")), .init("scope", .string(grant.scope)),
                    .init("expires_in", .number(String(left))),
                ]))
    }
}
