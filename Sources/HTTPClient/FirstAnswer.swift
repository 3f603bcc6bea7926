import Synchronization
import Transport

/// Resumes a continuation with whichever answer comes first (the lookup or the
/// caller's deadline); later answers are dropped.
final class FirstAnswer: Sendable {
    private let continuation:
        Mutex<CheckedContinuation<Result<[SocketAddress], HTTPClientError>, Never>?>

    init(_ continuation: CheckedContinuation<Result<[SocketAddress], HTTPClientError>, Never>) {
        self.continuation = Mutex(continuation)
    }

    func give(_ answer: Result<[SocketAddress], HTTPClientError>) {
        let waiting = continuation.withLock { stored in
            defer { stored = nil }
            return stored
        }
        waiting?.resume(returning: answer)
    }
}
