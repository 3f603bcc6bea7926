import HTTPClient
import HTTPCore
import Transport

/// The one call the handlers make to a provider. `HTTPClient` fits it as is; the sandbox
/// and test doubles implement it in process.
public protocol UpstreamTransport: Sendable {
    /// Sends `request` and returns the provider's complete answer (any status), or throws
    /// what went wrong on the way; the whole exchange is bounded by `timeoutSeconds`.
    func send(_ request: HTTPClientRequest, timeoutSeconds: Double) async throws(HTTPClientError)
        -> HTTPResponse

    /// The same call answering by callback, for the endpoints that answer so (swap,
    /// refresh). `HTTPClient` exchanges in place when it can; this default awaits `send`
    /// in a task (the in-process transports: the sandbox, test doubles).
    func send(
        _ request: HTTPClientRequest, timeoutSeconds: Double,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void)
}

extension UpstreamTransport {
    package func send(
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

extension HTTPClient: UpstreamTransport {
    package func send(
        _ request: HTTPClientRequest, timeoutSeconds: Double,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void
    ) {
        send(request, deadline: .after(seconds: timeoutSeconds), completion: completion)
    }
}
