import Foundation

/// Every event to every subscriber: `TokenSession.events` hands each reader a stream of
/// its own. A single `AsyncStream` shared by all has one consumer, so a second
/// `for await` (a view model and a logger, say) silently took events from the first.
///
/// Each stream gets every event from its subscription on. A reader that falls behind
/// loses its oldest events past `bufferSize` (the newest are what a UI shows), so a slow
/// or abandoned reader costs a bounded buffer, never unbounded memory. A stream that ends
/// (its task cancelled, its loop left and the stream dropped) is unsubscribed.
///
/// A lock rather than an actor: subscribing is synchronous (a property read) and must not
/// miss an event the session emits right after it. `NSLock`, not `Mutex`: the kit
/// deploys to iOS 16, before the Synchronization module.
final class EventBroadcast<Event: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var subscribers: [Int: AsyncStream<Event>.Continuation] = [:]
    private var nextID = 0
    private var finished = false
    let bufferSize: Int

    init(bufferSize: Int) {
        self.bufferSize = max(1, bufferSize)
    }

    /// A new stream, subscribed before this returns. Finished at once after `finish()`.
    func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Event.self, bufferingPolicy: .bufferingNewest(bufferSize))
        let id: Int? = lock.withLock {
            guard !finished else { return nil }
            nextID &+= 1
            subscribers[nextID] = continuation
            return nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        // Called outside `lock` (see `finish`), possibly on another thread.
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return stream
    }

    func yield(_ event: Event) {
        // Yielded outside the lock: a yield may run code of the stream's; order is kept
        // because the session emits from its actor, one event at a time.
        for continuation in lock.withLock({ Array(subscribers.values) }) {
            continuation.yield(event)
        }
    }

    /// Ends every stream; later subscribers get a finished one.
    func finish() {
        let ending = lock.withLock {
            finished = true
            defer { subscribers = [:] }
            return Array(subscribers.values)
        }
        // Outside the lock: `finish()` runs `onTermination`, which takes it.
        for continuation in ending { continuation.finish() }
    }

    /// How many streams are subscribed (tests check that an ended one is removed).
    var subscriberCount: Int { lock.withLock { subscribers.count } }

    private func unsubscribe(_ id: Int) {
        lock.withLock { _ = subscribers.removeValue(forKey: id) }
    }
}
