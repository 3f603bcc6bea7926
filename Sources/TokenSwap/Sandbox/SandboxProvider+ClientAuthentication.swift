import HTTPCore

extension SandboxProvider {
    /// A request to one of the sandbox's client endpoints (token, revocation,
    /// introspection), read and authenticated, or the error answer.
    enum ClientRequest {
        case accepted([String: String], Client)
        case refused(HTTPResponse)
    }

    /// The form body (each parameter at most once, RFC 6749 §3.2) and the authenticated
    /// client: what every endpoint the sandbox plays requires first (RFC 7009 §2.1 and
    /// RFC 7662 §2.1 authenticate the client as the token endpoint does).
    func clientRequest(headers: HTTPHeaders, body: [UInt8]) -> ClientRequest {
        guard
            headers["Content-Type"].map(TokenRequestFields.mediaType)
                == "application/x-www-form-urlencoded"
        else {
            return .refused(Self.oauthError(.badRequest, "invalid_request", "expected a form body"))
        }
        var fields: [String: String] = [:]
        do {
            for (name, value) in try FormURLEncoding.decode(body) {
                guard fields.updateValue(value, forKey: name) == nil else {
                    return .refused(
                        Self.oauthError(
                            .badRequest, "invalid_request", "\(name) appears more than once"))
                }
            }
        } catch {
            return .refused(Self.oauthError(.badRequest, "invalid_request", "malformed form body"))
        }
        switch authenticate(headers: headers, fields: fields) {
        case .success(let client): return .accepted(fields, client)
        case .failure(let response): return .refused(response)
        }
    }

    enum Authentication {
        case success(Client)
        case failure(HTTPResponse)
    }

    /// RFC 6749 §2.3.1: Basic (id and secret form-encoded, then base64) or body
    /// credentials, never both (§2.3). Secrets compare in constant time.
    func authenticate(headers: HTTPHeaders, fields: [String: String]) -> Authentication {
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
}
