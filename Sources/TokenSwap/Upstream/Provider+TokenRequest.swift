import HTTPClient
import HTTPCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Provider {
    /// The `POST` to this provider's token endpoint for `grant`: a form body
    /// (RFC 6749 §4.1.3 / §6) and client authentication per `authMethod` (§2.3.1). The
    /// secret goes in the `Authorization` header or the body, never in the URL.
    public func tokenRequest(for grant: TokenGrant) -> HTTPClientRequest {
        var fields: [(name: String, value: String)] = [("grant_type", grant.grantType)]
        switch grant {
        case .authorizationCode(let code, let redirectURI, let codeVerifier):
            fields.append(("code", code))
            fields.append(("redirect_uri", redirectURI))
            if let codeVerifier { fields.append(("code_verifier", codeVerifier)) }
        case .refreshToken(let token):
            fields.append(("refresh_token", token))
        }
        return formRequest(to: tokenURL, fields, authenticated: true)
    }

    /// A form `POST` to one of this provider's endpoints; with `authenticated`, client
    /// authentication per `authMethod` (RFC 6749 §2.3.1): the secret goes in the
    /// `Authorization` header or the body, never in the URL.
    func formRequest(
        to url: UpstreamURL, _ fields: [(name: String, value: String)], authenticated: Bool
    ) -> HTTPClientRequest {
        var fields = fields
        var headers = HTTPHeaders([
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Accept", "application/json"),
        ])
        if authenticated {
            switch authMethod {
            case .clientSecretBasic:
                headers.add(name: "Authorization", value: basicCredentials)
            case .clientSecretPost:
                fields.append(("client_id", clientID))
                fields.append(("client_secret", clientSecret.revealed))
            }
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
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }
}
