import HTTPClient
import HTTPCore
import HTTPServer

extension SandboxProvider: UpstreamTransport {
    /// The in-process token endpoint: any provider's token request lands here. A slow
    /// answer waits out the caller's deadline and then fails as the real client would.
    public func send(_ request: HTTPClientRequest, timeoutSeconds: Double)
        async throws(HTTPClientError) -> HTTPResponse
    {
        if isDeviceAuthorization(target: request.target) {
            return answerDeviceAuthorization(headers: request.headers, body: request.body)
        }
        switch answerToken(headers: request.headers, body: request.body) {
        case .now(let response):
            return response
        case .afterDeadline:
            try? await Task.sleep(for: .seconds(timeoutSeconds))
            throw .timeout(.exchange)
        }
    }

    /// `POST /sandbox/token`, for trying the provider side directly with `curl`; limited
    /// per client address like a provider's token endpoint (it checks client secrets).
    public func token(_ request: HTTPRequest) async -> HTTPResponse {
        if case .limited(let seconds) = tokenLimiter.take(for: request.remoteAddress ?? "unknown") {
            return TokenEndpointError.rateLimited(retryAfterSeconds: seconds).response
        }
        switch answerToken(headers: request.headers, body: request.body) {
        case .now(let response):
            return response
        case .afterDeadline:
            try? await Task.sleep(for: .seconds(limits.slowAnswerSeconds))
            return Self.oauthError(
                .serviceUnavailable, "temporarily_unavailable", "sandbox: answered too late")
        }
    }

    /// `GET /sandbox/authorize`, `POST /sandbox/token`, `POST /sandbox/device/code` and
    /// the verification page `GET|POST /sandbox/device`.
    public var routes: [ServiceRoute] {
        [
            ServiceRoute(
                .get, "/sandbox/authorize",
                handler: Endpoint(.sandbox) { [self] request, _ in
                    EndpointAnswer(authorize(request))
                }),
            ServiceRoute(
                .post, "/sandbox/token",
                handler: Endpoint(.sandbox) { [self] request, _ in
                    EndpointAnswer(await token(request))
                }),
            ServiceRoute(
                .post, "/sandbox/device/code",
                handler: Endpoint(.sandbox) { [self] request, _ in
                    EndpointAnswer(
                        answerDeviceAuthorization(headers: request.headers, body: request.body))
                }),
            ServiceRoute(
                .get, "/sandbox/device",
                handler: Endpoint(.sandbox) { [self] request, _ in
                    EndpointAnswer(verificationPage(request))
                }),
            ServiceRoute(
                .post, "/sandbox/device",
                handler: Endpoint(.sandbox) { [self] request, _ in
                    EndpointAnswer(verificationDecision(request))
                }),
        ]
    }
}
