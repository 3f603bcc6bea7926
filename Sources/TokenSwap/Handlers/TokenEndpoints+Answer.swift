import HTTPCore

extension TokenEndpoints {
    /// Runs one token request's `body` and turns its result into the answer: the response
    /// (every failure through `TokenEndpointError.response`) and the outcome the
    /// pipeline logs.
    func answer(
        provider: Provider, grant: String,
        _ body: () async throws(TokenEndpointError) -> HTTPResponse
    ) async -> EndpointAnswer {
        do {
            let response = try await body()
            return EndpointAnswer(
                response,
                outcome: RequestOutcome(provider: provider.name, grant: grant, result: "ok"))
        } catch {
            return EndpointAnswer(
                error.response,
                outcome: RequestOutcome(
                    provider: provider.name, grant: grant, result: error.errorCode))
        }
    }
}
