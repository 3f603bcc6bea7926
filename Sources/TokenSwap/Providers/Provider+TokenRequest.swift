import HTTPClient
import HTTPCore
import Sealing

extension Provider {
    /// The `POST` to this provider's token endpoint for `grant`: a form body
    /// (RFC 6749 §4.1.3 / §6) and client authentication per `authMethod` (§2.3.1). The
    /// secret goes in the `Authorization` header or the body, never in the URL.
    package func tokenRequest(for grant: TokenGrant) -> HTTPClientRequest {
        var fields: [(name: String, value: String)] = [("grant_type", grant.grantType)]
        switch grant {
        case .authorizationCode(let code, let redirectURI, let codeVerifier):
            fields.append(("code", code))
            fields.append(("redirect_uri", redirectURI))
            if let codeVerifier { fields.append(("code_verifier", codeVerifier)) }
        case .refreshToken(let token):
            fields.append(("refresh_token", token))
        }
        return formRequest(to: tokenURL, fields, authentication: authMethod)
    }

    /// A form `POST` to `url` (one of this provider's endpoints) authenticated by `method`
    /// (RFC 6749 §2.3.1; `none`: a public client names itself by `client_id`, §2.1; nil:
    /// nothing about the client at all, for endpoints that take the token alone).
    /// `namingClient` puts `client_id` in the body whatever `method` is, and still only
    /// once: for requests whose servers want it there even from a client that
    /// authenticates by header (the device authorization request, CONTRACT §7).
    /// `Accept: application/json` because GitHub answers form-encoded without it.
    func formRequest(
        to url: UpstreamURL, _ fields: [(name: String, value: String)],
        authentication method: ClientAuthMethod?, namingClient: Bool = false
    ) -> HTTPClientRequest {
        var fields = fields
        var headers = HTTPHeaders([
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Accept", "application/json"),
        ])
        switch method {
        case .clientSecretBasic?:
            headers.add(name: "Authorization", value: basicCredentials.revealed)
            if namingClient { fields.append(("client_id", clientID)) }
        case .clientSecretPost?:
            fields.append(("client_id", clientID))
            fields.append(("client_secret", clientSecret.revealed))
        case .none?:
            fields.append(("client_id", clientID))
        case nil:
            if namingClient { fields.append(("client_id", clientID)) }
        }
        return HTTPClientRequest(
            method: .post, origin: url.origin, target: url.target, headers: headers,
            body: FormURLEncoding.encode(fields))
    }

    /// `Basic base64(id:secret)`, each form-encoded first as RFC 6749 §2.3.1 requires (so a
    /// `:` in the id cannot shift the split).
    static func basicCredentials(clientID: String, clientSecret: String) -> String {
        let pair =
            FormURLEncoding.encodeComponent(clientID) + ":"
            + FormURLEncoding.encodeComponent(clientSecret)
        return "Basic " + Base64.encode(Array(pair.utf8))
    }
}

/// What the service asks the provider's token endpoint for (RFC 6749 §4.1.3, §6).
/// Holds a code or a raw provider refresh token: never logged, never printed.
