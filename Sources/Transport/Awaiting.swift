/// The one bridge from a callback-shaped operation to `await`: `operation` is handed a
/// completion, which it calls exactly once, from any thread, and the caller resumes with
/// what it was given. The service's operations answer by callback (the hot paths run
/// without a task, and in place when they can); the parts that run as tasks await them
/// through here rather than each writing its own continuation.
package func awaiting<Value: Sendable>(
    _ operation: (@escaping @Sendable (Value) -> Void) -> Void
) async -> Value {
    await withCheckedContinuation { continuation in
        operation { continuation.resume(returning: $0) }
    }
}
