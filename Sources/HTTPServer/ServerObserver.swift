/// What the server reports about the requests and connections it turned away itself,
/// before or without a handler (parse errors, deadlines, unrouted paths, a paused
/// accept), so the product can count them.
///
/// Called on the connection's event loop (or the listener's queue, for accept pauses),
/// synchronously: an implementation must be cheap and must not block (an atomic
/// increment, a lock held for a lookup). Events are enums without payload allocation.
public protocol ServerObserver: Sendable {
    func observe(_ event: ServerEvent)
}
