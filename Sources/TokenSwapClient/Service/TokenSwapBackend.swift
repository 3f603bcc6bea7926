import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The stateless calls to one provider's tokenswap endpoints (CONTRACT §2, §7, §8): what
/// the seeds' `getTokens`, `refreshToken`, `obtainUserCode`, `tokenIsValid` and
/// `invalidateToken` did by hand. Holds no token; `TokenSession` does. The app's view of a
/// tokenswap deployment, named apart from the server's `TokenSwapService`.
public struct TokenSwapBackend: Sendable {
    public let endpoints: TokenSwapEndpoints
    let transport: any HTTPTransport
    /// Per request; a refresh that hangs must not hold every caller of the session.
    let timeoutSeconds: Double

    public init(
        endpoints: TokenSwapEndpoints, transport: any HTTPTransport = URLSessionTransport(),
        timeoutSeconds: Double = 30
    ) {
        self.endpoints = endpoints
        self.transport = transport
        self.timeoutSeconds = timeoutSeconds
    }

    /// `POST …/swap`: an authorization code (and its PKCE verifier) for tokens.
    public func swap(code: String, codeVerifier: String? = nil, redirectURI: String? = nil)
        async throws -> TokenAnswer
    {
        var fields = [("code", code)]
        if let codeVerifier { fields.append(("code_verifier", codeVerifier)) }
        if let redirectURI { fields.append(("redirect_uri", redirectURI)) }
        return try await tokenAnswer(from: post(endpoints.swap, fields))
    }

    /// `POST …/refresh` with the sealed refresh token.
    public func refresh(_ refreshToken: RedactedToken) async throws -> TokenAnswer {
        try await tokenAnswer(
            from: post(endpoints.refresh, [("refresh_token", refreshToken.revealed)]))
    }

    /// `POST …/device/code` (RFC 8628 §3.1).
    public func startDeviceAuthorization(scope: String? = nil) async throws
        -> DeviceSignIn
    {
        let answer = try await post(endpoints.deviceCode, scope.map { [("scope", $0)] } ?? [])
        let object = try success(answer)
        return try DeviceSignIn(object, status: answer.status)
    }

    /// `POST …/device/token` (RFC 8628 §3.4), once. `DeviceFlow` polls with it.
    public func pollDeviceToken(_ deviceCode: RedactedToken) async throws -> TokenAnswer {
        try await tokenAnswer(
            from: post(endpoints.deviceToken, [("device_code", deviceCode.revealed)]))
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

    func post(_ url: URL, _ fields: [(String, String)]) async throws -> Answer {
        var request = URLRequest(url: url, timeoutInterval: timeoutSeconds)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = FormBody(fields).encoded
        do {
            let (data, response) = try await transport.send(request)
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
