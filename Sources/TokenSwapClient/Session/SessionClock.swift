/// The session's sense of time: a monotonic scale in seconds (only differences count) and
/// a way to wait. Token lifetimes are measured on it from when each answer arrived, never
/// against the wall clock, so a device clock that is minutes off, or changes, makes no
/// difference. Tests bring a clock they move by hand: a test seam, so `package`, not part
/// of the API an app sees.
package protocol SessionClock: Sendable {
    func now() -> Double
    func sleep(seconds: Double) async throws
}
