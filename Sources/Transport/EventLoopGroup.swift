import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A fixed set of event loops, one per core by default. `next()` hands them out
/// round-robin, for new accepted connections and new outbound ones alike.
package final class EventLoopGroup: Sendable {
    package let loops: [EventLoop]
    private let cursor = Atomic<Int>(0)

    /// - Parameter loopCount: number of loops; nil means one per online core.
    package init(loopCount: Int? = nil) {
        let count = max(1, loopCount ?? Self.onlineCores())
        loops = (0..<count).map { EventLoop(index: $0) }
    }

    package func next() -> EventLoop {
        let ticket = cursor.wrappingAdd(1, ordering: .relaxed).oldValue
        return loops[Int(UInt(bitPattern: ticket) % UInt(loops.count))]
    }

    package static func onlineCores() -> Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
