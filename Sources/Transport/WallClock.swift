#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Now, in Unix seconds, from the system's real-time clock: the one wall clock of the
/// service, for what must mean the same on every copy and survive a restart (a grant
/// family's start, a device code's expiry, a DPoP proof's `iat`, a nonce's time step, an
/// introspected token's `exp`). Deadlines and timers use the monotonic clock (`Deadline`)
/// instead. Tests inject their own.
package struct WallClock: Sendable {
    private let read: @Sendable () -> Int64

    package init(_ read: @escaping @Sendable () -> Int64) {
        self.read = read
    }

    /// The system's real-time clock.
    package static let system = WallClock { Int64(time(nil)) }

    /// Now, in whole seconds since 1970.
    package func now() -> Int64 { read() }
}
