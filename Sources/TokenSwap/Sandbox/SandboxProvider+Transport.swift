import HTTPClient
import HTTPCore

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

    /// `POST /sandbox/token`, for trying the provider side directly with `curl`.
    public func token(_ request: HTTPRequest) async -> HTTPResponse {
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
    /// the verification page `GET|POST /sandbox/device`, as data for the Router.
    public var routes: [TokenRoute] {
        [
            TokenRoute(method: .get, path: "/sandbox/authorize") { [self] request in
                authorize(request)
            },
            TokenRoute(method: .post, path: "/sandbox/token") { [self] request in
                await token(request)
            },
            TokenRoute(method: .post, path: "/sandbox/device/code") { [self] request in
                answerDeviceAuthorization(headers: request.headers, body: request.body)
            },
            TokenRoute(method: .get, path: "/sandbox/device") { [self] request in
                verificationPage(request)
            },
            TokenRoute(method: .post, path: "/sandbox/device") { [self] request in
                verificationDecision(request)
            },
        ]
    }
}
