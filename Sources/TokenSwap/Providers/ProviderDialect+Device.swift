import HTTPCore

/// Each dialect's device grant, as data the handlers use without knowing the dialect:
/// request fields out, normalised answers in (CONTRACT §7). Errors are recognised by
/// the provider's `error` member (RFC 400, GitHub 200, Auth0 403/429) or L2P's `status`
/// string, never by the HTTP status alone.
extension ProviderDialect {
    /// RFC 8628 §3.4.
    package static let deviceGrantType = "urn:ietf:params:oauth:grant-type:device_code"

    /// The device authorization request's fields (RFC 8628 §3.1; L2P `/code` takes the
    /// same) but `client_id`, which `Provider.deviceAuthorizationRequest` adds.
    func deviceAuthorizationFields(scope: String?) -> [(name: String, value: String)] {
        scope.map { [("scope", $0)] } ?? []
    }

    /// The poll's fields: RFC 8628 §3.4, or L2P's `grant_type=device&code=…`.
    func pollFields(deviceCode: String) -> [(name: String, value: String)] {
        switch self {
        case .rfc8628: [("grant_type", Self.deviceGrantType), ("device_code", deviceCode)]
        case .l2p: [("grant_type", "device"), ("code", deviceCode)]
        }
    }

    /// The provider's answer to the device authorization request.
    func interpretDeviceAuthorization(_ response: HTTPResponse) throws(GrantError)
        -> DeviceAuthorizationAnswer
    {
        let parsed = try? JSONParser.parse(response.body)
        switch self {
        case .rfc8628:
            guard (200..<300).contains(response.status.code),
                !ProviderTokenResponse.isOAuthError(parsed)
            else {
                // Not a device authorization: the provider's error, mapped as for tokens.
                _ = try ProviderTokenResponse.interpret(response)
                throw .upstreamError(reason: "provider answered the device request with tokens")
            }
            // Google names it verification_url.
            return try DeviceAuthorizationAnswer.parse(
                parsed, verificationKeys: ["verification_uri", "verification_url"],
                completeURI: { _, _ in nil })
        case .l2p:
            guard response.status.code == 200 else {
                throw .upstreamError(reason: "provider answered \(response.status.code)")
            }
            if let status = Self.l2pStatus(parsed), status != "ok" {
                throw .upstreamError(reason: "provider refused the device request")
            }
            return try DeviceAuthorizationAnswer.parse(
                parsed, verificationKeys: ["verification_url"],
                completeURI: Self.l2pVerificationURIComplete)
        }
    }

    /// The provider's answer to a poll: tokens, or one of RFC 8628 §3.5's errors;
    /// anything else throws as on swap and refresh (CONTRACT §2's table).
    func interpretPoll(_ response: HTTPResponse) throws(GrantError) -> DevicePollAnswer {
        let parsed = try? JSONParser.parse(response.body)
        if response.status.code < 500, let refusal = pollRefusal(parsed) {
            return .refused(refusal)
        }
        return .tokens(try interpretToken(response, parsed: parsed))
    }

    /// RFC 8628 §3.5's error, by the `error` member or, for L2P, the `status` string.
    private func pollRefusal(_ parsed: JSONValue?) -> DevicePollError? {
        if case .string(let error)? = parsed?["error"], let known = DevicePollError(rawValue: error)
        {
            return known
        }
        guard self == .l2p, let status = Self.l2pStatus(parsed) else { return nil }
        switch status {
        case "error: authorization pending": return .authorizationPending
        case "error: slow down": return .slowDown
        default: return nil
        }
    }

    /// CONTRACT §7: `verification_url?q=verify&d=<user_code>`, as the L2P clients build it.
    static func l2pVerificationURIComplete(_ verificationURL: String, _ userCode: String)
        -> String?
    {
        let separator = verificationURL.contains("?") ? "&" : "?"
        return verificationURL + separator + "q=verify&d="
            + FormURLEncoding.encodeComponent(userCode)
    }
}

/// A poll's normalised answer.
enum DevicePollAnswer: Sendable {
    case tokens(ProviderTokenResponse)
    case refused(DevicePollError)
}
