import HTTPCore
import Logging

extension TokenService {
    /// Runs one token request and logs the one line it gets: method, path, provider,
    /// status, duration, outcome and request id. Never a field value: codes and tokens stay out.
    func answer(
        _ request: HTTPRequest, provider: Provider, grant: String,
        _ body: () async throws(TokenEndpointError) -> HTTPResponse
    ) async -> HTTPResponse {
        let started = ContinuousClock.now
        let response: HTTPResponse
        let outcome: String
        do {
            response = try await body()
            outcome = "ok"
        } catch {
            response = error.response
            outcome = error.errorCode
        }
        let elapsed = ContinuousClock.now - started
        let milliseconds =
            Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds)
            / 1e15
        logger.info(
            "token request",
            metadata: [
                "method": "\(request.method)", "path": "\(request.path)",
                "provider": "\(provider.name)",
                "grant": "\(grant)", "status": "\(response.status.code)", "outcome": "\(outcome)",
                "duration_ms": "\(Int(milliseconds.rounded()))",
                // Set by RequestPipeline; checked again so a bare handler never logs a
                // header as it came.
                "request_id": "\(RequestID.accepted(request.headers[RequestID.headerName]) ?? "-")",
            ])
        return response
    }
}
