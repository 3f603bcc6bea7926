import HTTPCore

/// A provider's device authorization response (RFC 8628 §3.2), normalised from its
/// dialect: integer `expires_in` and `interval` (5 when the provider sent none), and a
/// `verification_uri_complete` when the provider sent or implies one. Holds a live
/// device code: no textual form shows it.
struct DeviceAuthorizationAnswer: Sendable, Equatable, CustomStringConvertible {
    /// RFC 8628 §3.2: "If no value is provided, clients MUST use 5 as the default."
    static let defaultIntervalSeconds = 5

    /// A day: the longest `expires_in` taken from a provider; a longer one is shortened
    /// to it. Device codes live minutes (RFC 8628 §3.2's example: 1800 s), and a bound
    /// keeps `now + expires_in` and the poll bookkeeping in range (CONTRACT §15).
    static let longestExpiresInSeconds = 86_400

    let deviceCode: String
    let userCode: String
    let verificationURI: String
    let verificationURIComplete: String?
    let expiresIn: Int
    let intervalSeconds: Int

    var description: String {
        "DeviceAuthorizationAnswer(expiresIn: \(expiresIn), interval: \(intervalSeconds), codes: <redacted>)"
    }

    /// The members every dialect shares, from a parsed 2xx body: `verificationKey` names
    /// the member holding the verification URI (`verification_uri` in RFC 8628, also
    /// `verification_url` from Google and L2P).
    static func parse(
        _ parsed: JSONValue?, verificationKeys: [String],
        completeURI: (_ verificationURI: String, _ userCode: String) -> String?
    ) throws(GrantError) -> DeviceAuthorizationAnswer {
        guard let parsed, case .object = parsed else {
            throw .upstreamError(reason: "device authorization response is not a JSON object")
        }
        guard case .string(let deviceCode)? = parsed["device_code"], !deviceCode.isEmpty,
            case .string(let userCode)? = parsed["user_code"], !userCode.isEmpty
        else {
            throw .upstreamError(
                reason: "device authorization response lacks device_code or user_code")
        }
        var verificationURI: String?
        for key in verificationKeys {
            if case .string(let uri)? = parsed[key], !uri.isEmpty {
                verificationURI = uri
                break
            }
        }
        guard let verificationURI else {
            throw .upstreamError(reason: "device authorization response lacks a verification URI")
        }
        guard let expiry = parsed["expires_in"],
            let seconds = ProviderTokenResponse.normalisedExpiresIn(expiry), seconds > 0
        else {
            throw .upstreamError(reason: "device authorization response has no valid expires_in")
        }
        let expiresIn = min(seconds, longestExpiresInSeconds)
        var interval = defaultIntervalSeconds
        if let value = parsed["interval"], value != .null {
            // Same grammar as expires_in; a zero interval would invite a busy loop, and one
            // over the schedule's ceiling is no interval a device could keep to.
            guard let seconds = ProviderTokenResponse.normalisedExpiresIn(value),
                seconds <= DevicePollSchedule.longestIntervalSeconds
            else {
                throw .upstreamError(
                    reason: "device authorization response has an invalid interval")
            }
            interval = max(1, seconds)
        }
        var complete: String?
        if case .string(let sent)? = parsed["verification_uri_complete"], !sent.isEmpty {
            complete = sent
        } else {
            complete = completeURI(verificationURI, userCode)
        }
        return DeviceAuthorizationAnswer(
            deviceCode: deviceCode, userCode: userCode, verificationURI: verificationURI,
            verificationURIComplete: complete, expiresIn: expiresIn, intervalSeconds: interval)
    }

    /// The 200 for the device (CONTRACT §7), with the device code replaced by `sealed`.
    func response(sealedDeviceCode sealed: String) -> HTTPResponse {
        var members: [JSONValue.Member] = [
            .init("device_code", .string(sealed)),
            .init("user_code", .string(userCode)),
            .init("verification_uri", .string(verificationURI)),
        ]
        if let verificationURIComplete {
            members.append(.init("verification_uri_complete", .string(verificationURIComplete)))
        }
        members.append(.init("expires_in", .number(String(expiresIn))))
        members.append(.init("interval", .number(String(intervalSeconds))))
        return HTTPResponse(
            status: .ok, headers: TokenResponseHeaders.base,
            body: JSONValue.object(members).serialized)
    }
}
