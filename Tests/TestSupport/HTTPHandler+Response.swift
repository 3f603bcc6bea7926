import HTTPCore
import HTTPServer

/// A handler that answered `Respond.fail()`: the server would have answered its 500.
public struct HandlerFailed: Error {}

extension HTTPHandler {
    /// The handler's response to `request`, awaited: for tests that call a handler outside
    /// a server. The server itself never awaits a handler.
    public func response(to request: HTTPRequest, _ context: RequestContext) async throws
        -> HTTPResponse
    {
        let answer = await withCheckedContinuation { continuation in
            self(request, context, Respond { continuation.resume(returning: $0) })
        }
        guard let answer else { throw HandlerFailed() }
        return answer
    }
}
