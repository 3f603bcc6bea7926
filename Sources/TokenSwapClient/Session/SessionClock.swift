import Foundation

/// The session's sense of time: a monotonic scale in seconds (only differences count) and
/// a way to wait. Token lifetimes are measured on it from when each answer arrived, never
/// against the wall clock, so a device clock that is minutes off, or changes, makes no
/// difference. Tests bring a clock they move by hand: a test seam, so `package`, not part
/// of the API an app sees.
///
/// `wallNow` is the device's wall clock, in seconds since 1970: for what must outlive a
/// restart (when the grant ends, CONTRACT §14), never for an access token's lifetime.
package protocol SessionClock: Sendable {
    func now() -> Double
    func wallNow() -> Double
    func sleep(seconds: Double) async throws
}

extension SessionClock {
    /// The device's wall clock; a test's clock brings its own.
    package func wallNow() -> Double {
        Date().timeIntervalSince1970
    }
}
