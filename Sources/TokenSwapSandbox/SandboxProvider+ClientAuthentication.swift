import HTTPCore
import TokenSwap

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
        let fields: [String: String]
        switch Self.formFields(headers: headers, body: body) {
        case .success(let decoded): fields = decoded
        case .failure(let refusal): return .refused(refusal.response)
        }
        switch authenticate(headers: headers, fields: fields, endpoint: .token) {
        case .success(let client): return .accepted(fields, client)
        case .failure(let response): return .refused(response)
        }
    }
}
