import HTTPCore
import HTTPServer
import TokenSwap
import Transport

extension SandboxProvider {
    /// `GET /sandbox/authorize?redirect_uri=URI&state=S[&client_id=ID][&scope=…]
    /// [&code_challenge=C&code_challenge_method=S256]`: what a provider does after the
    /// user consents, `302` to `URI?code=CODE&state=S`. Errors about the client or the
    /// redirect URI are answered here, not redirected (RFC 6749 §4.1.2.1: never send a
    /// user to an unverified URI); the others go to the redirect URI as `error=…`.
    package func authorize(_ request: HTTPRequest) -> HTTPResponse {
        // The router answers HEAD with the GET handler (RFC 9110 §9.3.2); minting a code is
        // not safe to repeat for a HEAD (link checkers, prefetchers), so only GET may.
        guard request.method == .get else {
            let refusal = ServerError.methodNotAllowed(allow: [.get])
            var headers = TokenResponseHeaders.base
            headers.add(name: "Allow", value: "GET")  // RFC 9110 §15.5.6
            return OAuthErrorResponse.make(
                refusal.status, code: refusal.code, description: refusal.errorDescription,
                headers: headers)
        }
        var query: [String: String] = [:]
        do {
            for (name, value) in try FormURLEncoding.decode((request.query ?? "").utf8)
            where query[name] == nil {
                query[name] = value
            }
        } catch {
            return Self.page(.badRequest, "malformed query string")
        }
        let clientID = query["client_id"] ?? defaultClientID
        guard let client = client(clientID) else {
            return Self.page(.badRequest, "unknown client_id")
        }
        let redirectURI = query["redirect_uri"] ?? client.defaultRedirectURI
        guard client.redirectURIs.contains(redirectURI) else {
            return Self.page(
                .badRequest,
                "redirect_uri is not registered for this client; allowed: "
                    + client.redirectURIs.joined(separator: ", "))
        }
        let stateParameter = query["state"]
        if let responseType = query["response_type"], responseType != "code" {
            return Self.redirect(
                redirectURI, [("error", "unsupported_response_type")], state: stateParameter)
        }
        var challenge: PKCEChallenge?
        if let text = query["code_challenge"] {
            guard
                let parsed = PKCEChallenge(challenge: text, method: query["code_challenge_method"])
            else {
                return Self.redirect(
                    redirectURI,
                    [
                        ("error", "invalid_request"),
                        ("error_description", "invalid code_challenge"),
                    ],
                    state: stateParameter)
            }
            challenge = parsed
        }
        let code = Self.randomValue(prefix: "sbc-")
        let grant = CodeGrant(
            clientID: clientID, redirectURI: query["redirect_uri"], challenge: challenge,
            scope: query["scope"] ?? "sandbox", issuedFamily: nil)
        let now = clock()
        state.withLock {
            $0.codes.insert(
                grant, for: code,
                expiresAt: Deadline.after(seconds: limits.codeLifetimeSeconds, from: now), now: now)
        }
        return Self.redirect(redirectURI, [("code", code)], state: stateParameter)
    }

    /// `302` to `uri` with the parameters appended to its query, form-encoded.
    static func redirect(_ uri: String, _ parameters: [(String, String)], state: String?)
        -> HTTPResponse
    {
        var pairs = parameters.map { (name: $0.0, value: $0.1) }
        if let state { pairs.append((name: "state", value: state)) }
        let separator = uri.contains("?") ? "&" : "?"
        let location =
            uri + separator + String(decoding: FormURLEncoding.encode(pairs), as: UTF8.self)
        return HTTPResponse(
            status: .found,
            headers: HTTPHeaders([("Location", location), ("Cache-Control", "no-store")]))
    }

    /// A JSON error for problems that must not be redirected.
    static func page(_ status: HTTPStatus, _ description: String) -> HTTPResponse {
        OAuthErrorResponse.make(status, code: "invalid_request", description: description)
    }
}
