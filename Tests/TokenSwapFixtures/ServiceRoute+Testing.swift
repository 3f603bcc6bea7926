import HTTPCore
import HTTPServer

@testable import TokenSwap

extension Route where Handler == Endpoint {
    /// Runs this endpoint directly, as the pipeline would, and returns its response.
    func answer(_ request: HTTPRequest) async -> HTTPResponse {
        let context = ServiceContext(requestID: "test-request", routePath: path)
        return await EndpointAnswer.awaited { handler(request, context, $0) }.response
    }
}
