import Transport

/// Which pool a request uses: its origin, on the event loop it runs on.
struct PoolKey: Hashable, Sendable {
    let origin: Origin
    /// The loop's index in the client's group.
    let loop: Int
}
