import HTTPCore
import Sealing

/// How each dialect's token answer reads, for swap, refresh and the device poll
/// (CONTRACT §2, §7).
extension ProviderDialect {
    /// A swap, refresh or poll answer: L2P's `status` errors (HTTP 200) become
    /// `invalid_grant`, so a dead token is always a 4xx (CONTRACT §7); the rest is
    /// CONTRACT §2's table.
    func interpretToken(_ response: HTTPResponse) throws(GrantError)
        -> ProviderTokenResponse
    {
        try interpretToken(response, parsed: nil)
    }

    func interpretToken(_ response: HTTPResponse, parsed: JSONValue??)
        throws(GrantError) -> ProviderTokenResponse
    {
        if self == .l2p, response.status.code == 200 {
            let parsed = parsed ?? (try? JSONParser.parse(response.body))
            if let status = Self.l2pStatus(parsed), status != "ok", parsed?["access_token"] == nil {
                // "authorization invalid." (refresh token older than six months), "error:
                // refresh token invalid.", and any other refusal of the grant.
                throw .providerRejected(
                    status: .badRequest,
                    body: OAuthErrorResponse.body(
                        code: "invalid_grant",
                        description: "the provider says the grant is invalid or expired"))
            }
        }
        return try ProviderTokenResponse.interpret(response)
    }

    /// L2P's `status`, lower-cased, trimmed, without a final period (the service sends
    /// `error: authorization pending` with and without one).
    static func l2pStatus(_ parsed: JSONValue?) -> String? {
        guard case .string(let status)? = parsed?["status"] else { return nil }
        var normalised = status.trimmingWhitespace().lowercased()
        if normalised.hasSuffix(".") { normalised.removeLast() }
        return normalised
    }
}
