import HTTPCore

extension TokenEndpoints {
    /// Runs one token request's `body` and turns its result into the answer.
    func answer(
        provider: Provider, grant: String,
        _ body: () async throws(TokenEndpointError) -> HTTPResponse
    ) async -> EndpointAnswer {
        do {
            return Self.answer(.success(try await body()), provider: provider, grant: grant)
        } catch {
            return Self.answer(.failure(error), provider: provider, grant: grant)
        }
    }

    /// A token request's result as its answer: the response (every failure through
    /// `TokenEndpointError.response`) and the outcome the pipeline logs.
    static func answer(
        _ result: Result<HTTPResponse, TokenEndpointError>, provider: Provider, grant: String
    ) -> EndpointAnswer {
        switch result {
        case .success(let response):
            EndpointAnswer(
                response,
                outcome: RequestOutcome(provider: provider.name, grant: grant, result: "ok"))
        case .failure(let error):
            EndpointAnswer(
                error.response,
                outcome: RequestOutcome(
                    provider: provider.name, grant: grant, result: error.errorCode))
        }
    }

    /// What a callback-shaped token endpoint finishes with: its result, answered through
    /// `completion` as `answer` shapes it.
    static func answering(
        provider: Provider, grant: String,
        _ completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) -> @Sendable (Result<HTTPResponse, TokenEndpointError>) -> Void {
        { result in completion(answer(result, provider: provider, grant: grant)) }
    }

    /// Awaits an endpoint written as a callback (for `/v1/token`'s dispatch and tests).
    static func awaiting(
        _ start: (@escaping @Sendable (EndpointAnswer) -> Void) -> Void
    ) async -> EndpointAnswer {
        await withCheckedContinuation { continuation in
            start { continuation.resume(returning: $0) }
        }
    }
}
