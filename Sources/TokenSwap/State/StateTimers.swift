import Dispatch
import Transport

/// Where `MemoryStateStore` runs the one timer it needs: a waiter of `awaitAnswer` must be
/// answered when its deadline passes or the claim it waits on lapses, even if nothing else
/// happens to the key (CONTRACT §12: a claimant that dies frees the key). A timer is set
/// only for a waiter, never on a plain refresh; nothing blocks or spins while it runs.
package struct StateTimers: Sendable {
    /// Calls `fire` once, at or soon after the deadline, from any thread, unless the
    /// handle it answers (kept by the waiter) is released first: a waiter answered early
    /// drops its timer with it.
    package let schedule:
        @Sendable (_ deadline: Deadline, _ fire: @escaping @Sendable () -> Void) -> (
            any Sendable
        )?

    package init(
        schedule:
            @escaping @Sendable (_ deadline: Deadline, _ fire: @escaping @Sendable () -> Void)
            -> (any Sendable)?
    ) {
        self.schedule = schedule
    }

    /// On the event loop the caller runs on (a request's handler), else the group's next:
    /// the timers of the loops that serve the requests.
    package static func loops(_ group: EventLoopGroup) -> StateTimers {
        StateTimers { deadline, fire in
            let loop = group.loops.first(where: \.inLoop) ?? group.next()
            return loop.schedule(at: deadline, handler: fire)
        }
    }

    /// Dispatch's global queue: for a store used without the server's loops (the
    /// endpoints alone, in tests and tools).
    package static let dispatch = StateTimers { deadline, fire in
        DispatchQueue.global().asyncAfter(deadline: deadline.dispatchTime) { fire() }
        return nil
    }
}
