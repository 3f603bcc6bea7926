import HTTPClient
import HTTPCore

/// The one call the handlers make to a provider. `HTTPClient` fits it as is; the sandbox
/// and test doubles implement it in process.
public protocol UpstreamTransport: Sendable {
    /// Sends `request` and returns the provider's complete answer (any status), or throws
    /// what went wrong on the way; the whole exchange is bounded by `timeoutSeconds`.
    func send(_ request: HTTPClientRequest, timeoutSeconds: Double) async throws(HTTPClientError)
        -> HTTPResponse

    /// The same call shaped as a callback (experiment); by default through a task.
    func send(
        _ request: HTTPClientRequest, timeoutSeconds: Double,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void)
}

extension UpstreamTransport {
    public func send(
        _ request: HTTPClientRequest, timeoutSeconds: Double,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void
    ) {
        Task {
            do throws(HTTPClientError) {
                completion(.success(try await send(request, timeoutSeconds: timeoutSeconds)))
            } catch {
                completion(.failure(error))
            }
        }
    }
}
