import HTTPCore
import Sealing
import TokenSwap
import Transport

#if canImport(Glibc)
    import Glibc
#endif

extension SandboxProvider {
    /// What the token endpoint decided: an answer now, or one that comes too late.
    enum TokenAnswer: Sendable {
        case now(HTTPResponse)
        case afterDeadline
    }

    /// The token endpoint (RFC 6749 §3.2) for a request's headers and form body.
    func answerToken(headers: HTTPHeaders, body: [UInt8]) -> TokenAnswer {
        let (fields, client): ([String: String], Client)
        switch clientRequest(headers: headers, body: body) {
        case .accepted(let accepted, let authenticated):
            (fields, client) = (accepted, authenticated)
        case .refused(let response): return .now(response)
        }
        switch fields["grant_type"] {
        case "authorization_code":
            return exchangeCode(fields, client: client)
        case "refresh_token":
            return refresh(fields, client: client)
        case ProviderDialect.deviceGrantType, "device":
            return .now(pollDevice(fields, client: client))
        case "invalidate" where client.dialect == .l2p:
            return answerInvalidation(fields, client: client)
        case nil:
            return .now(Self.oauthError(.badRequest, "invalid_request", "grant_type is missing"))
        default:
            return .now(
                Self.oauthError(.badRequest, "unsupported_grant_type", "unsupported grant_type"))
        }
    }

    enum Authentication {
        case success(Client)
        case failure(HTTPResponse)
    }

    /// Which of the client's endpoints a request is for: each has its own client
    /// authentication (`_AUTH`, `_DEVICE_CLIENT_AUTH`).
    enum ClientEndpoint {
        case token
        case deviceAuthorization
    }

    /// A request body refused before anything else is looked at.
    struct FormRefusal: Error {
        let response: HTTPResponse
    }

    /// The form body of a provider request, each field at most once (RFC 6749 §3.2).
    static func formFields(headers: HTTPHeaders, body: [UInt8]) -> Result<
        [String: String], FormRefusal
    > {
        guard
            headers["Content-Type"].map(TokenRequestFields.mediaType)
                == "application/x-www-form-urlencoded"
        else {
            return .failure(
                FormRefusal(
                    response: oauthError(.badRequest, "invalid_request", "expected a form body")))
        }
        var fields: [String: String] = [:]
        do {
            for (name, value) in try FormURLEncoding.decode(body) {
                guard fields.updateValue(value, forKey: name) == nil else {
                    return .failure(
                        FormRefusal(
                            response: oauthError(
                                .badRequest, "invalid_request", "\(name) appears more than once")))
                }
            }
        } catch {
            return .failure(
                FormRefusal(
                    response: oauthError(.badRequest, "invalid_request", "malformed form body")))
        }
        return .success(fields)
    }

    /// RFC 6749 §2.3.1: Basic (id and secret form-encoded, then base64) or body
    /// credentials, never both (§2.3); a public client (§2.1, `none`) names itself by
    /// `client_id` alone. Secrets compare in constant time.
    func authenticate(headers: HTTPHeaders, fields: [String: String], endpoint: ClientEndpoint)
        -> Authentication
    {
        let invalidClient = Self.oauthError(
            .unauthorized, "invalid_client", "client authentication failed",
            extraHeaders: [("WWW-Authenticate", #"Basic realm="sandbox""#)])
        var credentials: (id: String, secret: String)?
        if let authorization = headers["Authorization"] {
            guard fields["client_secret"] == nil,
                let basic = BasicCredentials(authorization: authorization)
            else { return .failure(invalidClient) }
            credentials = (basic.clientID, basic.secret)
        } else if let id = fields["client_id"], let secret = fields["client_secret"] {
            credentials = (id, secret)
        } else if let id = fields["client_id"], let client = client(id),
            client.authMethod(for: endpoint) == ClientAuthMethod.none
        {
            return .success(client)
        }
        guard let credentials, let client = client(credentials.id),
            Self.constantTimeEqual(Array(credentials.secret.utf8), client.secret)
        else { return .failure(invalidClient) }
        return .success(client)
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private func exchangeCode(_ fields: [String: String], client: Client) -> TokenAnswer {
        guard let code = fields["code"], !code.isEmpty else {
            return .now(Self.oauthError(.badRequest, "invalid_request", "code is missing"))
        }
        if let magic = SandboxMagicValue(rawValue: code) { return failure(magic) }
        if let planted = SandboxMagicValue.planted(byCode: code) {
            // Not stored: the planted magic value answers by itself on refresh.
            return .now(
                state.withLock {
                    tokenResponse(
                        &$0, client: client, refreshToken: planted.rawValue, scope: "sandbox")
                })
        }
        if code == SandboxMagicValue.noRefresh || code == SandboxMagicValue.stringExpiry {
            return .now(
                state.withLock {
                    tokenResponse(
                        &$0, client: client, refreshToken: nil, scope: "sandbox",
                        expiresInAsString: code == SandboxMagicValue.stringExpiry)
                })
        }
        let now = clock()
        return .now(
            state.withLock { state -> HTTPResponse in
                guard case .live(let grant) = state.codes.lookup(code, now: now) else {
                    return Self.oauthError(
                        .badRequest, "invalid_grant", "authorization code is invalid or expired")
                }
                if let family = grant.issuedFamily {
                    // §4.1.2: a code used twice is denied, and what it issued is revoked.
                    state.revokeFamily(family)
                    state.codes.remove(code)
                    return Self.oauthError(
                        .badRequest, "invalid_grant", "authorization code was already used")
                }
                guard grant.clientID == client.clientID else {
                    return Self.oauthError(
                        .badRequest, "invalid_grant", "code was issued to another client")
                }
                if let expected = grant.redirectURI, fields["redirect_uri"] != expected {
                    return Self.oauthError(
                        .badRequest, "invalid_grant",
                        "redirect_uri does not match the authorize request")
                }
                if let challenge = grant.challenge,
                    !challenge.isSatisfied(by: fields["code_verifier"])
                {
                    return Self.oauthError(
                        .badRequest, "invalid_grant",
                        "code_verifier does not match the code_challenge")
                }
                state.nextFamily += 1
                let family = state.nextFamily
                state.codes.update(code) { $0.issuedFamily = family }
                return issueTokens(&state, client: client, scope: grant.scope, family: family)
            })
    }

    private func refresh(_ fields: [String: String], client: Client) -> TokenAnswer {
        guard let token = fields["refresh_token"], !token.isEmpty else {
            return .now(Self.oauthError(.badRequest, "invalid_request", "refresh_token is missing"))
        }
        if let magic = SandboxMagicValue(rawValue: token) {
            if client.dialect == .l2p, let refusal = Self.l2pRefreshRefusal(magic) {
                return .now(refusal)
            }
            return failure(magic)
        }
        let now = clock()
        return .now(
            state.withLock { state -> HTTPResponse in
                let grant: RefreshGrant
                switch state.refreshTokens.lookup(token, now: now) {
                case .live(let live): grant = live
                case .expired:
                    return client.dialect == .l2p
                        ? Self.l2pStatus("authorization invalid.")
                        : Self.oauthError(.badRequest, "invalid_grant", "refresh token expired")
                case .absent:
                    return client.dialect == .l2p
                        ? Self.l2pStatus("error: refresh token invalid.")
                        : Self.oauthError(
                            .badRequest, "invalid_grant", "refresh token is invalid or revoked")
                }
                guard grant.clientID == client.clientID else {
                    return Self.oauthError(
                        .badRequest, "invalid_grant", "refresh token was issued to another client")
                }
                // Every refresh rotates: the old token stops working at once.
                state.refreshTokens.remove(token)
                let rotated = Self.randomValue(prefix: "sbr-")
                state.refreshTokens.insert(
                    grant, for: rotated,
                    expiresAt: Deadline.after(
                        seconds: limits.refreshTokenLifetimeSeconds, from: now), now: now)
                return tokenResponse(
                    &state, client: client, refreshToken: rotated, scope: grant.scope,
                    family: grant.family)
            })
    }

    /// L2P's HTTP 200 refusals of a refresh (CONTRACT §7): `authorization invalid.` when
    /// the refresh token aged out (six months), `error: refresh token invalid.` otherwise.
    static func l2pRefreshRefusal(_ magic: SandboxMagicValue) -> HTTPResponse? {
        switch magic {
        case .expired: l2pStatus("authorization invalid.")
        case .invalid: l2pStatus("error: refresh token invalid.")
        default: nil
        }
    }

    /// An L2P answer: HTTP 200 and a `status` string, the way oauth2waitress reports
    /// everything.
    static func l2pStatus(_ status: String, _ members: [JSONValue.Member] = []) -> HTTPResponse {
        HTTPResponse(
            status: .ok, headers: TokenResponseHeaders.base,
            body: JSONValue.object(members + [.init("status", .string(status))]).serialized)
    }

    func failure(_ magic: SandboxMagicValue) -> TokenAnswer {
        let retryAfter = [("Retry-After", String(limits.retryAfterSeconds))]
        switch magic {
        case .invalid:
            return .now(Self.oauthError(.badRequest, "invalid_grant", "sandbox: invalid grant"))
        case .expired:
            return .now(Self.oauthError(.badRequest, "invalid_grant", "sandbox: grant expired"))
        case .throttled:
            return .now(
                Self.plain(.tooManyRequests, "sandbox: slow down", extraHeaders: retryAfter))
        case .throttledJSON:
            return .now(
                Self.oauthError(
                    .tooManyRequests, "temporarily_unavailable", "sandbox: slow down",
                    extraHeaders: retryAfter))
        case .serverError:
            return .now(Self.plain(.internalServerError, "sandbox: internal error"))
        case .slow:
            return .afterDeadline
        case .garbage:
            return .now(
                Self.plain(
                    .ok, "<html>sandbox: not a token response</html>", contentType: "text/html"))
        }
    }

    /// A new grant's first answer: a refresh token for `family`, stored, and the token
    /// response that carries it.
    func issueTokens(_ state: inout State, client: Client, scope: String, family: UInt64)
        -> HTTPResponse
    {
        let now = clock()
        let refreshToken = Self.randomValue(prefix: "sbr-")
        state.refreshTokens.insert(
            RefreshGrant(clientID: client.clientID, scope: scope, family: family),
            for: refreshToken,
            expiresAt: Deadline.after(seconds: limits.refreshTokenLifetimeSeconds, from: now),
            now: now)
        return tokenResponse(
            &state, client: client, refreshToken: refreshToken, scope: scope, family: family)
    }

    /// A token response in the client's dialect with a fresh access token, remembered
    /// under `family` (a new one when nil) so introspection and revocation know it.
    func tokenResponse(
        _ state: inout State, client: Client, refreshToken: String?, scope: String,
        family: UInt64? = nil, expiresInAsString: Bool = false
    ) -> HTTPResponse {
        let accessToken = Self.randomValue(prefix: "sba-")
        let family =
            family
            ?? {
                state.nextFamily += 1
                return state.nextFamily
            }()
        let now = clock()
        let issuedAt = Int(wallClock.now())
        let lifetime = limits.accessTokenLifetimeSeconds
        state.accessTokens.insert(
            AccessGrant(
                clientID: client.clientID, scope: scope, family: family,
                expiresAt: issuedAt + lifetime, issuedAt: issuedAt),
            for: accessToken, expiresAt: Deadline.after(seconds: Double(lifetime), from: now),
            now: now)
        var members: [JSONValue.Member] = [
            .init("access_token", .string(accessToken)),
            .init("token_type", .string("Bearer")),
            .init("scope", .string(scope)),
            .init(
                "expires_in",
                expiresInAsString
                    ? .string(String(limits.accessTokenLifetimeSeconds))
                    : .number(String(limits.accessTokenLifetimeSeconds))),
        ]
        if let refreshToken { members.append(.init("refresh_token", .string(refreshToken))) }
        if client.dialect == .l2p { members.append(.init("status", .string("ok"))) }
        return HTTPResponse(
            status: .ok, headers: TokenResponseHeaders.base,
            body: JSONValue.object(members).serialized)
    }

    static func oauthError(
        _ status: HTTPStatus, _ code: String, _ description: String,
        extraHeaders: [(String, String)] = []
    ) -> HTTPResponse {
        var headers = TokenResponseHeaders.base
        for (name, value) in extraHeaders { headers.add(name: name, value: value) }
        return OAuthErrorResponse.make(
            status, code: code, description: description, headers: headers)
    }

    static func plain(
        _ status: HTTPStatus, _ text: String, contentType: String = "text/plain",
        extraHeaders: [(String, String)] = []
    ) -> HTTPResponse {
        var headers = HTTPHeaders([("Content-Type", contentType)])
        for (name, value) in extraHeaders { headers.add(name: name, value: value) }
        return HTTPResponse(status: status, headers: headers, body: Array(text.utf8))
    }
}
