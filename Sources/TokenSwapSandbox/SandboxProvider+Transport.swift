import HTTPClient
import HTTPCore
import HTTPServer
import TokenSwap

extension SandboxProvider: UpstreamTransport {
    /// The in-process token endpoint: any provider's token request lands here and is
    /// answered at once, before `send` returns, as a pooled connection exchanging in place
    /// would. A slow answer waits out the caller's deadline and then fails as the real
    /// client would.
    package func send(
        _ request: HTTPClientRequest, timeoutSeconds: Double,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void
    ) {
        if isDeviceAuthorization(target: request.target) {
            return completion(
                .success(answerDeviceAuthorization(headers: request.headers, body: request.body)))
        }
        switch answer(target: request.target, headers: request.headers, body: request.body) {
        case .now(let response):
            completion(.success(response))
        case .afterDeadline:
            Task {
                try? await Task.sleep(for: .seconds(timeoutSeconds))
                completion(.failure(.timeout(.exchange)))
            }
        }
    }

    /// Which endpoint a request is for, by the last segment of its path: every provider's
    /// URLs point at the sandbox, whatever their host (`…/revoke`, `…/introspect`, L2P's
    /// `…/tokeninfo`, and the token endpoint for everything else).
    func answer(target: String, headers: HTTPHeaders, body: [UInt8]) -> TokenAnswer {
        let path = target.split(separator: "?", maxSplits: 1).first ?? ""
        if path.hasSuffix("/revoke") { return answerRevocation(headers: headers, body: body) }
        if path.hasSuffix("/introspect") {
            return answerIntrospection(headers: headers, body: body)
        }
        if path.hasSuffix("/tokeninfo") { return answerTokenInfo(headers: headers, body: body) }
        return answerToken(headers: headers, body: body)
    }

    /// `POST /sandbox/token|revoke|introspect`, for trying the provider side directly with
    /// `curl`; limited per client address like a provider's endpoints (they check client
    /// secrets).
    package func token(_ request: HTTPRequest) async -> HTTPResponse {
        if case .limited(let seconds) = tokenLimiter.take(for: request.remoteAddress ?? "unknown") {
            return GrantError.rateLimited(retryAfterSeconds: seconds).response
        }
        switch answer(target: request.target, headers: request.headers, body: request.body) {
        case .now(let response):
            return response
        case .afterDeadline:
            try? await Task.sleep(for: .seconds(limits.slowAnswerSeconds))
            return Self.oauthError(
                .serviceUnavailable, "temporarily_unavailable", "sandbox: answered too late")
        }
    }

    /// `GET /sandbox/authorize`, `POST /sandbox/token|revoke|introspect`,
    /// `POST /sandbox/device/code` and the verification page `GET|POST /sandbox/device`.
    package var routes: [ServiceRoute] {
        func route(
            _ method: HTTPMethod, _ path: String,
            _ answer: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
        ) -> ServiceRoute {
            ServiceRoute(
                method, path,
                handler: .async(.sandbox) { request, _ in EndpointAnswer(await answer(request)) })
        }
        return [
            route(.get, "/sandbox/authorize") { [self] in authorize($0) },
            route(.post, "/sandbox/token") { [self] in await token($0) },
            route(.post, "/sandbox/revoke") { [self] in await token($0) },
            route(.post, "/sandbox/introspect") { [self] in await token($0) },
            route(.post, "/sandbox/device/code") { [self] in
                answerDeviceAuthorization(headers: $0.headers, body: $0.body)
            },
            route(.get, "/sandbox/device") { [self] in verificationPage($0) },
            route(.post, "/sandbox/device") { [self] in verificationDecision($0) },
        ]
    }
}
