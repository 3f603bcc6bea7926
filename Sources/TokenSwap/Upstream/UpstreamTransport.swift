import HTTPClient
import HTTPCore
import Transport

/// The one call the handlers make to a provider, answered once by callback from any
/// thread: `HTTPClient` exchanges in place when an idle pooled connection of the caller's
/// loop is there; the sandbox and test doubles answer in process.
public protocol UpstreamTransport: Sendable {
    /// Sends `request` and answers with the provider's complete answer (any status), or
    /// what went wrong on the way; the whole exchange is bounded by `timeoutSeconds`.
    func send(
        _ request: HTTPClientRequest, timeoutSeconds: Double,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void)
}

extension UpstreamTransport {
    /// `send`, awaited: for the endpoints that run in a task (device authorization,
    /// revocation, introspection).
    package func send(_ request: HTTPClientRequest, timeoutSeconds: Double)
        async throws(HTTPClientError) -> HTTPResponse
    {
        try await withCheckedContinuation { continuation in
            send(request, timeoutSeconds: timeoutSeconds) { continuation.resume(returning: $0) }
        }.get()
    }
}

extension HTTPClient: UpstreamTransport {
    package func send(
        _ request: HTTPClientRequest, timeoutSeconds: Double,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void
    ) {
        send(request, deadline: .after(seconds: timeoutSeconds), completion: completion)
    }
}
