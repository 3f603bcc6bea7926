import HTTPClient
import HTTPCore
import Synchronization
import TokenSwap

/// A provider that holds every call until the test releases it, counting them: the call
/// in flight of single flight (CONTRACT §12), for as long as the test needs it to be.
package final class HeldUpstream: UpstreamTransport {
    private let pending = Mutex<[@Sendable (Result<HTTPResponse, HTTPClientError>) -> Void]>(
        [])
    private let calls = Atomic<Int>(0)
    /// What every released call is answered.
    let answer: Result<HTTPResponse, HTTPClientError>

    package init(_ answer: Result<HTTPResponse, HTTPClientError>) {
        self.answer = answer
    }

    /// A `200` with `json` as its body.
    package convenience init(json: String) {
        self.init(
            .success(
                HTTPResponse(
                    status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]),
                    body: Array(json.utf8))))
    }

    package var callCount: Int { calls.load(ordering: .relaxed) }

    package func send(
        _ request: HTTPClientRequest, timeoutSeconds: Double,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void
    ) {
        calls.add(1, ordering: .relaxed)
        pending.withLock { $0.append(completion) }
    }

    /// Answers every call held so far.
    package func release() {
        let held = pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
        for completion in held { completion(answer) }
    }
}

/// Answers collected from callbacks, in the order they came.
package final class CollectedAnswers: Sendable {
    private let answers = Mutex<[HTTPResponse]>([])
    package init() {}
    package var all: [HTTPResponse] { answers.withLock { $0 } }
    package var count: Int { answers.withLock { $0.count } }
    package func record(_ answer: EndpointAnswer) {
        answers.withLock { $0.append(answer.response) }
    }
}
