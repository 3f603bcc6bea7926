import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The stateless calls to one provider's tokenswap endpoints (CONTRACT §2, §7, §8): what
/// the seeds' `getTokens`, `refreshToken`, `obtainUserCode`, `tokenIsValid` and
/// `invalidateToken` did by hand. Holds no token; `TokenSession` does. The app's view of a
/// tokenswap deployment, named apart from the server's `TokenSwapService`.
///
/// Swap, refresh and device calls take the DPoP key to prove with (RFC 9449, CONTRACT
/// §13); `TokenSession` passes its own. The newest `DPoP-Nonce` each origin gave, and how
/// far its clock is from the device's, are kept and shared by every copy of a backend
/// (`DPoPOrigins`), and a `use_dpop_nonce` answer is retried once with the nonce it brings.
public struct TokenSwapBackend: Sendable {
    public let endpoints: TokenSwapEndpoints
    let transport: any HTTPTransport
    /// Per request; a refresh that hangs must not hold every caller of the session.
    let timeoutSeconds: Double
    /// Seconds since 1970: a proof's `iat`, the one time tokenswap compares with its own.
    let wallClock: @Sendable () -> Double
    let origins = DPoPOrigins()

    public init(
        endpoints: TokenSwapEndpoints, transport: any HTTPTransport = URLSessionTransport(),
        timeoutSeconds: Double = 30
    ) {
        self.init(
            endpoints: endpoints, transport: transport, timeoutSeconds: timeoutSeconds,
            wallClock: { Date().timeIntervalSince1970 })
    }

    /// With a wall clock of the test's own (a seam, so `package`).
    package init(
        endpoints: TokenSwapEndpoints, transport: any HTTPTransport, timeoutSeconds: Double = 30,
        wallClock: @escaping @Sendable () -> Double
    ) {
        self.endpoints = endpoints
        self.transport = transport
        self.timeoutSeconds = timeoutSeconds
        self.wallClock = wallClock
    }

    /// `POST …/swap`: an authorization code (and its PKCE verifier) for tokens, bound to
    /// `dpopKey` when one is given.
    public func swap(
        code: String, codeVerifier: String? = nil, redirectURI: String? = nil,
        dpopKey: DPoPKey? = nil
    ) async throws -> TokenAnswer {
        var fields = [("code", code)]
        if let codeVerifier { fields.append(("code_verifier", codeVerifier)) }
        if let redirectURI { fields.append(("redirect_uri", redirectURI)) }
        return try await tokenAnswer(from: post(endpoints.swap, fields, proofBy: dpopKey))
    }

    /// `POST …/refresh` with the sealed refresh token: a token bound to a key refreshes
    /// only with a proof by that key (CONTRACT §13).
    public func refresh(_ refreshToken: RedactedToken, dpopKey: DPoPKey? = nil) async throws
        -> TokenAnswer
    {
        try await tokenAnswer(
            from: post(
                endpoints.refresh, [("refresh_token", refreshToken.revealed)], proofBy: dpopKey))
    }

    /// `POST …/device/code` (RFC 8628 §3.1). With `dpopKey` the device code is bound to
    /// it: the polls must be proved by the same key.
    public func startDeviceAuthorization(scope: String? = nil, dpopKey: DPoPKey? = nil)
        async throws -> DeviceSignIn
    {
        let answer = try await post(
            endpoints.deviceCode, scope.map { [("scope", $0)] } ?? [], proofBy: dpopKey)
        let object = try success(answer)
        return try DeviceSignIn(object, status: answer.status)
    }

    /// `POST …/device/token` (RFC 8628 §3.4), once. `DeviceFlow` polls with it.
    public func pollDeviceToken(_ deviceCode: RedactedToken, dpopKey: DPoPKey? = nil)
        async throws -> TokenAnswer
    {
        try await tokenAnswer(
            from: post(
                endpoints.deviceToken, [("device_code", deviceCode.revealed)], proofBy: dpopKey))
    }

    /// `POST …/revoke` (RFC 7009). `unsupported` when the provider has no revocation API
    /// (`Tokenswap-Revocation: broker`, CONTRACT §8, or `unsupported` from deployments
    /// before it); a provider failure (503) is thrown as `temporarilyUnavailable`: RFC 7009
    /// §2.2.1, the client keeps its token and retries.
    public func revoke(_ token: RedactedToken, hint: String? = nil) async throws
        -> TokenRevocation
    {
        var fields = [("token", token.revealed)]
        if let hint { fields.append(("token_type_hint", hint)) }
        let answer = try await post(endpoints.revoke, fields)
        do {
            _ = try success(answer)
        } catch TokenSwapClientError.rejected(let failure) where failure.status == 503 {
            throw TokenSwapClientError.temporarilyUnavailable(
                retryAfterSeconds: failure.retryAfterSeconds ?? 1)
        }
        switch answer.response.value(forHTTPHeaderField: "Tokenswap-Revocation")?.lowercased() {
        case "broker", "unsupported": return .unsupported
        default: return .revoked
        }
    }

    /// `POST …/introspect` (RFC 7662 shape) with an access token.
    public func introspect(_ accessToken: RedactedToken) async throws -> Introspection {
        let answer = try await post(endpoints.introspect, [("token", accessToken.revealed)])
        return Introspection(try success(answer))
    }

    // MARK: - The wire

    struct Answer {
        let status: Int
        let data: Data
        let response: HTTPURLResponse
    }

    /// With `proofBy`, the request carries a fresh proof with the newest nonce this origin
    /// gave. At most one more try, never a loop: after a `use_dpop_nonce` answer (RFC 9449
    /// §8) with the nonce it brings, or after an `invalid_dpop_proof` whose `Date` showed
    /// the device's clock to be off (the `iat` was outside the server's window; the new
    /// proof follows the server's clock). A second refusal is the caller's error.
    func post(_ url: URL, _ fields: [(String, String)], proofBy key: DPoPKey? = nil)
        async throws -> Answer
    {
        guard let key else { return try await send(url, fields, proof: nil) }
        let offsetUsed = await origins.clockOffsetSeconds(for: url)
        let first = try await send(url, fields, proof: (key, await origins.nonce(for: url)))
        switch Self.proofError(first) {
        case "use_dpop_nonce":
            guard let nonce = first.response.value(forHTTPHeaderField: "DPoP-Nonce"),
                DPoPOrigins.isNonce(nonce)
            else { return first }
            return try await send(url, fields, proof: (key, nonce))
        case "invalid_dpop_proof":
            guard await origins.clockOffsetSeconds(for: url) != offsetUsed else { return first }
            return try await send(url, fields, proof: (key, await origins.nonce(for: url)))
        default:
            return first
        }
    }

    /// The nonce and the server's clock from an answer to a proved request.
    private func learn(from response: HTTPURLResponse, for url: URL) async {
        if let nonce = response.value(forHTTPHeaderField: "DPoP-Nonce") {
            await origins.remember(nonce: nonce, for: url)
        }
        if let date = response.value(forHTTPHeaderField: "Date").flatMap(RetryAfter.httpDate) {
            await origins.remember(
                serverTime: date.timeIntervalSince1970, localTime: wallClock(), for: url)
        }
    }

    /// The `error` of a `400` (or `401`, RFC 9449 §9's resource-server form) answer.
    private static func proofError(_ answer: Answer) -> String? {
        guard answer.status == 400 || answer.status == 401 else { return nil }
        return JSONObject(answer.data)?.string("error")
    }

    private func send(_ url: URL, _ fields: [(String, String)], proof: (DPoPKey, String?)?)
        async throws -> Answer
    {
        var request = URLRequest(url: url, timeoutInterval: timeoutSeconds)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = FormBody(fields).encoded
        if let (key, nonce) = proof {
            let issuedAt = wallClock() + (await origins.clockOffsetSeconds(for: url))
            // A key that cannot sign (a Secure Enclave refusing, say) is a store that does
            // not work right now, as a keychain before the first unlock is.
            guard
                let signed = try? DPoPProof.make(
                    key: key, method: "POST", url: url, issuedAt: Self.seconds(issuedAt),
                    nonce: nonce)
            else { throw TokenSwapClientError.storageUnavailable }
            request.setValue(signed, forHTTPHeaderField: "DPoP")
        }
        do {
            let (data, response) = try await transport.send(request)
            if proof != nil {
                await learn(from: response, for: url)
            }
            return Answer(status: response.statusCode, data: data, response: response)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as TokenSwapClientError {
            throw error
        } catch {
            // The request's body holds the token; an error only describes the exchange.
            throw TokenSwapClientError.network(
                code: (error as? URLError)?.code, detail: Self.describe(error))
        }
    }

    /// The JSON object of a 2xx answer, or the error it is.
    func success(_ answer: Answer) throws -> JSONObject {
        let object = JSONObject(answer.data)
        guard (200..<300).contains(answer.status) else {
            throw TokenSwapClientError.rejected(
                OAuthErrorAnswer(
                    status: answer.status, error: object?.string("error"),
                    errorDescription: object?.string("error_description"),
                    retryAfterSeconds: RetryAfter.seconds(in: answer.response),
                    intervalSeconds: object?.seconds("interval")))
        }
        guard let object else { throw TokenSwapClientError.unexpectedAnswer(status: answer.status) }
        return object
    }

    func tokenAnswer(from answer: Answer) throws -> TokenAnswer {
        try TokenAnswer(success(answer), status: answer.status)
    }

    /// Whole seconds, saturating: a wall clock reading NaN or beyond `Int` (a broken
    /// seam) is no reason to trap.
    static func seconds(_ time: Double) -> Int {
        guard time.isFinite else { return time > 0 ? .max : 0 }
        return Int(max(min(time.rounded(.down), 9.0e18), -9.0e18))
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? URLError {
            return "URLError \(error.code.rawValue)"
        }
        return String(describing: type(of: error))
    }
}

/// The name before issue 19, kept so existing apps compile.
@available(*, deprecated, renamed: "TokenSwapBackend")
public typealias TokenSwapService = TokenSwapBackend
