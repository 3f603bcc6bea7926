import HTTPCore
import Sealing
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// A provider's successful token response (RFC 6749 §5.1), checked and normalised:
/// `access_token` present, `expires_in` an integer (numeric strings accepted, as some
/// providers send them), every other member kept as sent.
package struct ProviderTokenResponse: Sendable, Equatable {
    /// Members in the provider's order, `expires_in` normalised.
    package let members: [JSONValue.Member]
    /// The raw provider refresh token, if one was issued: sealed before it leaves.
    package let refreshToken: String?

    /// Interprets the provider's answer: a token response on 2xx, otherwise the
    /// `GrantError` for the error table.
    package static func interpret(_ response: HTTPResponse) throws(GrantError)
        -> ProviderTokenResponse
    {
        let code = response.status.code
        // Parsed once here; every case below reads the same value.
        let parsed = try? JSONParser.parse(response.body)
        switch code {
        case 200..<300 where isOAuthError(parsed):
            // Some providers report errors with a 2xx; a dead grant must still reach the
            // client as a 4xx (CONTRACT §2), so it is passed through as a 400.
            throw .providerRejected(status: .badRequest, body: response.body)
        case 200..<300:
            return try parseSuccess(parsed)
        case 429:
            let body = isOAuthError(parsed) ? response.body : nil
            throw .providerThrottled(
                retryAfterSeconds: retryAfterSeconds(response.headers), body: body)
        case 400..<500 where isOAuthError(parsed):
            throw .providerRejected(status: response.status, body: response.body)
        case 400..<500:
            throw .upstreamError(reason: "provider answered \(code) without an OAuth error body")
        default:
            throw .upstreamError(reason: "provider answered \(code)")
        }
    }

    /// An RFC 6749 §5.2 error: a JSON object with a string `error`.
    static func isOAuthError(_ parsed: JSONValue?) -> Bool {
        guard case .string(let error)? = parsed?["error"] else { return false }
        return !error.isEmpty
    }

    /// The provider's `Retry-After` as whole seconds, clamped (CONTRACT §2,
    /// `ProviderRetryAfter`); nil when it sent none or one that is neither a delay nor a date.
    static func retryAfterSeconds(_ headers: HTTPHeaders, now: Int64 = WallClock.system.now()) -> Int? {
        guard let value = headers["Retry-After"]?.trimmingWhitespace() else { return nil }
        return ProviderRetryAfter.seconds(value, now: now)
    }

    static func parseSuccess(_ parsed: JSONValue?) throws(GrantError)
        -> ProviderTokenResponse
    {
        guard let parsed, case .object(let received) = parsed else {
            throw .upstreamError(reason: "token response is not a JSON object")
        }
        guard case .string(let accessToken)? = parsed["access_token"], !accessToken.isEmpty else {
            throw .upstreamError(reason: "token response has no access_token")
        }
        var expiresIn: JSONValue?
        if let value = received.first(where: { $0.name == "expires_in" })?.value {
            guard let seconds = normalisedExpiresIn(value) else {
                throw .upstreamError(reason: "token response has an invalid expires_in")
            }
            expiresIn = .number(String(seconds))
        }
        var refreshToken: String?
        switch parsed["refresh_token"] {
        case nil, .null?: refreshToken = nil
        case .string(let token)? where !token.isEmpty: refreshToken = token
        default: throw .upstreamError(reason: "token response has an invalid refresh_token")
        }
        // One new array, the size it ends at and one more (the answer adds a member at
        // most): `received` is still the parsed value's, so changing it in place would
        // copy it first.
        var members: [JSONValue.Member] = []
        members.reserveCapacity(received.count + 1)
        for member in received {
            switch member.name {
            case "expires_in":
                members.append(JSONValue.Member(member.name, expiresIn ?? member.value))
            case "refresh_token" where refreshToken == nil:
                continue
            default:
                members.append(member)
            }
        }
        return ProviderTokenResponse(members: members, refreshToken: refreshToken)
    }

    /// `3600`, `"3600"`, `3600.0` or `3.6e3` → 3600. Negative, fractional or absurd
    /// (over a century) values are not a lifetime.
    static func normalisedExpiresIn(_ value: JSONValue) -> Int? {
        let text: String
        switch value {
        case .number(let number): text = number
        case .string(let string): text = string.trimmingWhitespace()
        default: return nil
        }
        let maxSeconds = 100 * 366 * 24 * 3600
        if !text.isEmpty, text.utf8.count <= 12, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        {
            guard let seconds = Int(text), seconds <= maxSeconds else { return nil }
            return seconds
        }
        // Fraction or exponent: only the JSON number grammar, only when exactly integral.
        guard case .number = value, let double = Double(text), double >= 0,
            double <= Double(maxSeconds),
            let seconds = Int(exactly: double)
        else { return nil }
        return seconds
    }
}

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
