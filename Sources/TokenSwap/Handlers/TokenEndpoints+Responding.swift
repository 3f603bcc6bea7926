import HTTPClient
import HTTPCore

extension TokenEndpoints {
    /// `refresh` shaped as a callback (experiment): the same steps and answers, with the
    /// provider call through the transport's callback `send`.
    public func refresh(
        _ request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        let finish: @Sendable (Result<HTTPResponse, TokenEndpointError>) -> Void = { result in
            switch result {
            case .success(let response):
                completion(
                    EndpointAnswer(
                        response,
                        outcome: RequestOutcome(
                            provider: provider.name, grant: "refresh_token", result: "ok")))
            case .failure(let error):
                completion(
                    EndpointAnswer(
                        error.response,
                        outcome: RequestOutcome(
                            provider: provider.name, grant: "refresh_token",
                            result: error.errorCode)))
            }
        }
        let sealed: String
        let opened: OpenedTokenText
        do throws(TokenEndpointError) {
            let fields = try TokenRequestFields.decode(request)
            guard let value = fields["refresh_token"] else {
                throw .invalidRequest("refresh_token is missing")
            }
            sealed = value
            let token = try open(sealed, for: provider)
            guard let raw = token.plaintextString else {
                metrics.sealingFailed(.open, reason: "not_utf8")
                throw .unopenableToken
            }
            opened = OpenedTokenText(raw: raw, sealedWithActiveKey: token.sealedWithActiveKey)
        } catch {
            return finish(.failure(error))
        }
        call(provider, provider.tokenRequest(for: .refreshToken(opened.raw))) {
            (answer) throws(TokenEndpointError) in
            try provider.dialect.interpretToken(answer)
        } completion: { [self] result in
            finish(
                result.flatMap { tokens in
                    do throws(TokenEndpointError) {
                        let answer: String
                        if let rotated = tokens.refreshToken, rotated != opened.raw {
                            answer = try seal(rotated, for: provider)
                        } else if opened.sealedWithActiveKey {
                            answer = sealed
                        } else {
                            answer = try seal(opened.raw, for: provider)
                        }
                        return .success(Self.success(tokens, refreshToken: answer))
                    } catch {
                        return .failure(error)
                    }
                })
        }
    }

    /// `call` shaped as a callback (experiment).
    func call<Answer>(
        _ provider: Provider, _ request: HTTPClientRequest,
        interpret: @escaping @Sendable (HTTPResponse) throws(TokenEndpointError) -> Answer,
        completion: @escaping @Sendable (Result<Answer, TokenEndpointError>) -> Void
    ) {
        transport.send(request, timeoutSeconds: upstreamTimeoutSeconds) { [self] result in
            let answer: HTTPResponse
            switch result {
            case .failure(let error):
                let outcome = UpstreamOutcome(error)
                metrics.upstream(provider: provider.name, outcome)
                logger.warning(
                    "provider call failed",
                    metadata: [
                        "provider": "\(provider.name)", "outcome": "\(outcome.rawValue)",
                        "reason": "\(error)",
                    ])
                return completion(.failure(TokenEndpointError(error)))
            case .success(let response):
                answer = response
            }
            do throws(TokenEndpointError) {
                let interpreted = try interpret(answer)
                metrics.upstream(provider: provider.name, .ok)
                completion(.success(interpreted))
            } catch {
                metrics.upstream(
                    provider: provider.name,
                    UpstreamOutcome(status: answer.status.code, error: error))
                completion(.failure(error))
            }
        }
    }
}

/// A refresh token opened from its sealed form (experiment).
struct OpenedTokenText: Sendable {
    var raw: String
    var sealedWithActiveKey: Bool
}
