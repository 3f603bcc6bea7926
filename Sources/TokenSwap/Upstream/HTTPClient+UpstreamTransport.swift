import HTTPClient
import HTTPCore
import Transport

extension HTTPClient: UpstreamTransport {
    public func send(
        _ request: HTTPClientRequest, timeoutSeconds: Double,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void
    ) {
        send(request, deadline: .after(seconds: timeoutSeconds), completion: completion)
    }
}
