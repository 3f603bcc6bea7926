import HTTPCore
import HTTPServer

extension HTTPHandler {
    /// The handler's response to `request`, whichever its shape, without a server.
    func response(to request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        switch self {
        case .awaiting(let handler):
            return try await handler(request, context)
        case .responding(let responder):
            return await withCheckedContinuation { continuation in
                responder(request, context) { continuation.resume(returning: $0) }
            }
        }
    }
}
