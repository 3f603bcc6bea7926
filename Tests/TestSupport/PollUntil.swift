/// Looks at `condition` every `interval` until it holds; throws `PollTimeout` when it has
/// not held within `limit`. For waiting on what a server or a child process does next,
/// where a fixed sleep would be either too short on a loaded machine or needlessly long.
/// The defaults suit state in this process (a server's counters, a held handler): cheap
/// to look at every millisecond, and given far longer than any stall of the machine.
///
/// It throws only after a look that began once the limit had passed found the condition
/// false: a poll whose sleep (or whose look) the machine stalled past the limit looks
/// again before giving up, so a stall alone never fails a condition that holds.
public func pollUntil(
    every interval: Duration = .milliseconds(1), within limit: Duration = .seconds(30),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while true {
        let lookBegan = ContinuousClock.now
        if try await condition() { return }
        guard lookBegan < deadline else { throw PollTimeout(limit: limit) }
        try await Task.sleep(for: interval)  // the poll's own pace, not a wait for the event
    }
}

/// `pollUntil`'s condition did not hold in time.
public struct PollTimeout: Error, CustomStringConvertible {
    public let limit: Duration

    public var description: String { "condition not met within \(limit)" }
}
