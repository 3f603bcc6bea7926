import Dispatch

/// A timer on an event loop; cancel it to stop it and release its handler.
///
/// `@unchecked Sendable` is sound: the only stored property is a `let` DispatchSource,
/// and `dispatch_source_cancel` is documented thread-safe and idempotent.
public final class LoopTimer: @unchecked Sendable {
    private let source: any DispatchSourceTimer

    init(source: any DispatchSourceTimer) {
        self.source = source
    }

    public func cancel() {
        source.cancel()
    }

    deinit {
        source.cancel()
    }
}
