import HTTPClient
import HTTPCore
import Synchronization

@testable import TokenSwap
@testable import TokenSwapFixtures

/// A fake provider that records what it was sent and answers from a script: what the
/// handler put on the wire (secret location, redirect URI, raw refresh token) is
/// checked on the recording.
final class RecordingUpstream: UpstreamTransport {
    enum Answer: Sendable {
        case response(HTTPResponse)
        case failure(HTTPClientError)
    }

    private let state: Mutex<(answers: [Answer], requests: [HTTPClientRequest])>

    convenience init(_ answers: Answer...) {
        self.init(answers)
    }

    init(_ answers: [Answer]) {
        state = Mutex((answers, []))
    }

    var requests: [HTTPClientRequest] { state.withLock { $0.requests } }

    func send(
        _ request: HTTPClientRequest, timeoutSeconds: Double,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void
    ) {
        let answer: Answer? = state.withLock { state in
            state.requests.append(request)
            return state.answers.isEmpty ? nil : state.answers.removeFirst()
        }
        switch answer {
        case .response(let response)?: completion(.success(response))
        case .failure(let error)?: completion(.failure(error))
        case nil:
            completion(.failure(.protocolError(reason: "test upstream has no scripted answer")))
        }
    }

    static func json(_ status: Int, _ body: String, headers: [(String, String)] = []) -> Answer {
        .response(
            HTTPResponse(
                status: HTTPStatus(code: status, reasonPhrase: "X"),
                headers: HTTPHeaders([("Content-Type", "application/json")] + headers),
                body: Array(body.utf8)))
    }
}

extension HeldUpstream {
    /// Holds every call, then answers it as `answer` scripts.
    convenience init(_ answer: RecordingUpstream.Answer) {
        let result: Result<HTTPResponse, HTTPClientError> =
            switch answer {
            case .response(let response): .success(response)
            case .failure(let error): .failure(error)
            }
        self.init(result)
    }
}
