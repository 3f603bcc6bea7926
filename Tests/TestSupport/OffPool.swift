import Foundation

/// Runs blocking or CPU-heavy work on a thread of its own and awaits it. Every test of
/// every target shares one process, and on a 2-core machine the cooperative pool has two
/// threads: a test that blocks them (a socket read, a child's start-up, a loop of a
/// hundred thousand seals) stalls every other suite's continuations, and timing tests
/// elsewhere then fail for no fault of their own.
public func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
