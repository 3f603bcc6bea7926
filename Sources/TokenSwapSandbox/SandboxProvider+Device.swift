import HTTPCore
import TokenSwap
import Transport

/// The sandbox's device authorization grant (RFC 8628): the device authorization
/// endpoint, the polls on the token endpoint, in the client's dialect (RFC 8628 or L2P).
/// The user approves or denies on the verification page (`SandboxProvider+Verification`).
extension SandboxProvider {
    struct DeviceGrant: Sendable {
        enum Decision: Sendable {
            case pending
            case approved
            case denied
        }

        let clientID: String
        let scope: String
        let userCode: String
        var decision: Decision
        let magic: SandboxDeviceScope?
    }

    /// RFC 8628 §6.1: 8 characters from 20 consonants (no vowels, so no words; no
    /// look-alike digits), about 34.6 bits; shown as `XXXX-XXXX`.
    static let userCodeAlphabet = Array("BCDFGHJKLMNPQRSTVWXZ")

    /// Whether `target` is some client's device authorization endpoint.
    func isDeviceAuthorization(target: String) -> Bool {
        clients.contains { $0.deviceTarget == target }
    }

    /// The device authorization endpoint (RFC 8628 §3.1–3.2); L2P's `/code` in L2P shape.
    func answerDeviceAuthorization(headers: HTTPHeaders, body: [UInt8]) -> HTTPResponse {
        let fields: [String: String]
        switch Self.formFields(headers: headers, body: body) {
        case .success(let decoded): fields = decoded
        case .failure(let refusal): return refusal.response
        }
        let client: Client
        switch authenticate(headers: headers, fields: fields, endpoint: .deviceAuthorization) {
        case .success(let authenticated): client = authenticated
        case .failure(let response): return response
        }
        guard client.deviceTarget != nil else {
            return Self.oauthError(
                .badRequest, "unauthorized_client", "this client has no device grant")
        }
        let scope = fields["scope"].flatMap { $0.isEmpty ? nil : $0 } ?? "sandbox"
        let deviceCode = Self.randomValue(prefix: "sbd-")
        var generator = SystemRandomNumberGenerator()
        let userCode = String(
            (0..<8).map { _ in
                Self.userCodeAlphabet[
                    Int(generator.next(upperBound: UInt64(Self.userCodeAlphabet.count)))]
            })
        let grant = DeviceGrant(
            clientID: client.clientID, scope: scope, userCode: userCode, decision: .pending,
            magic: SandboxDeviceScope.requested(in: scope))
        let now = clock()
        let expiresAt = Deadline.after(seconds: Double(limits.deviceCodeLifetimeSeconds), from: now)
        state.withLock {
            $0.deviceGrants.insert(grant, for: deviceCode, expiresAt: expiresAt, now: now)
            $0.userCodes.insert(deviceCode, for: userCode, expiresAt: expiresAt, now: now)
        }
        let display = Self.displayed(userCode)
        let page = baseURL.withLock { $0 } + "/sandbox/device"
        var members: [JSONValue.Member] = [
            .init("device_code", .string(deviceCode)), .init("user_code", .string(display)),
        ]
        switch client.dialect {
        case .rfc8628:
            members += [
                .init("verification_uri", .string(page)),
                .init(
                    "verification_uri_complete",
                    .string(page + "?user_code=" + FormURLEncoding.encodeComponent(display))),
            ]
        case .l2p:
            // L2P sends only the page; tokenswap builds `?q=verify&d=<user_code>`.
            members.append(.init("verification_url", .string(page)))
        }
        members += [
            .init("expires_in", .number(String(limits.deviceCodeLifetimeSeconds))),
            .init("interval", .number(String(limits.deviceIntervalSeconds))),
        ]
        if client.dialect == .l2p { members.append(.init("status", .string("ok"))) }
        return HTTPResponse(
            status: .ok, headers: TokenResponseHeaders.base,
            body: JSONValue.object(members).serialized)
    }

    /// A poll (RFC 8628 §3.4–3.5; L2P `grant_type=device&code=…`). Approved codes give
    /// tokens once; the refresh token then lives like one from a code.
    func pollDevice(_ fields: [String: String], client: Client) -> HTTPResponse {
        let deviceCode = client.dialect == .l2p ? fields["code"] : fields["device_code"]
        guard let deviceCode, !deviceCode.isEmpty else {
            return Self.oauthError(.badRequest, "invalid_request", "device code is missing")
        }
        let now = clock()
        return state.withLock { state -> HTTPResponse in
            let grant: DeviceGrant
            switch state.deviceGrants.lookup(deviceCode, now: now) {
            case .live(let live): grant = live
            case .expired: return Self.pollRefusal(.expiredToken, client.dialect)
            case .absent:
                return Self.oauthError(.badRequest, "invalid_grant", "device code is invalid")
            }
            guard grant.clientID == client.clientID else {
                return Self.oauthError(
                    .badRequest, "invalid_grant", "device code was issued to another client")
            }
            switch grant.magic {
            case .deny?: return Self.pollRefusal(.accessDenied, client.dialect)
            case .expire?: return Self.pollRefusal(.expiredToken, client.dialect)
            case .slowDown?: return Self.pollRefusal(.slowDown, client.dialect)
            case nil: break
            }
            switch grant.decision {
            case .pending:
                return Self.pollRefusal(.authorizationPending, client.dialect)
            case .denied:
                state.deviceGrants.remove(deviceCode)
                return Self.pollRefusal(.accessDenied, client.dialect)
            case .approved:
                // Single use: the device code is spent once it gave tokens.
                state.deviceGrants.remove(deviceCode)
                state.nextFamily += 1
                return issueTokens(
                    &state, client: client, scope: grant.scope, family: state.nextFamily)
            }
        }
    }

    /// A poll that gives no tokens, as the dialect says it: RFC 8628 §3.5's 400 with an
    /// `error`, or L2P's HTTP 200 `status` strings. L2P documents no strings for a denied
    /// or expired code, so those carry RFC 8628's `error` member in L2P's 200.
    static func pollRefusal(_ refusal: DevicePollError, _ dialect: ProviderDialect)
        -> HTTPResponse
    {
        switch (dialect, refusal) {
        case (.rfc8628, _):
            return oauthError(.badRequest, refusal.rawValue, "sandbox: \(refusal.rawValue)")
        case (.l2p, .authorizationPending):
            return l2pStatus("error: authorization pending.")
        case (.l2p, .slowDown):
            return l2pStatus("error: slow down")
        case (.l2p, _):
            return l2pStatus(
                "error: \(refusal.rawValue)", [.init("error", .string(refusal.rawValue))])
        }
    }

    /// `BCDFGHJK` → `BCDF-GHJK` (RFC 8628 §6.1: easier to read and type).
    static func displayed(_ userCode: String) -> String {
        String(userCode.prefix(4)) + "-" + String(userCode.dropFirst(4))
    }

    /// What a person typed, as stored: letters upper-cased, dashes and spaces dropped
    /// (RFC 8628 §6.1: "the characters … should be case-insensitive" and punctuation
    /// ignored).
    static func normalisedUserCode(_ typed: String) -> String {
        String(typed.uppercased().filter { $0 != "-" && !$0.isWhitespace })
    }

    /// The user's decision on the verification page: nil when the code is unknown or
    /// expired, or was already decided.
    func decide(userCode typed: String, approve: Bool) -> Bool {
        let userCode = Self.normalisedUserCode(typed)
        guard userCode.count == 8 else { return false }
        let now = clock()
        return state.withLock { state in
            guard case .live(let deviceCode) = state.userCodes.lookup(userCode, now: now),
                case .live(let grant) = state.deviceGrants.lookup(deviceCode, now: now),
                case .pending = grant.decision
            else { return false }
            state.deviceGrants.update(deviceCode) { $0.decision = approve ? .approved : .denied }
            // A user code works once (RFC 8628 §5.1: limit guessing).
            state.userCodes.remove(userCode)
            return true
        }
    }
}
