import HTTPCore
import HTTPServer

@testable import TokenSwap

extension EndpointAnswer {
    /// The one answer a responder gives through `respond`, awaited: for tests that call an
    /// endpoint or a grant outside a server. The service itself never awaits a responder.
    static func awaited(_ start: (@escaping Endpoint.Respond) -> Void) async -> EndpointAnswer {
        await withCheckedContinuation { continuation in
            start { continuation.resume(returning: $0) }
        }
    }
}

extension GrantEndpoints {
    /// The answer of a grant written as a callback (`swap`, `refresh`, `token`), awaited:
    /// `service.answer { $0.swap(request, provider: provider, completion: $1) }`.
    func answer(
        _ call: (GrantEndpoints, @escaping Endpoint.Respond) -> Void
    ) async -> EndpointAnswer {
        await .awaited { call(self, $0) }
    }
}
