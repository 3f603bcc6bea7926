import Foundation

/// Runs blocking work (process start-up, socket reads) on a thread of its own. The tests
/// of every target share one process and a cooperative pool of two threads on a 2-core
/// machine; blocking those would stall other suites' continuations and deadlines.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

struct EndToEndFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
