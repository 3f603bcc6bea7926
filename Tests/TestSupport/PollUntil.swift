/// Looks at `condition` every `interval` until it holds; throws `PollTimeout` when it has
/// not held within `limit`. For waiting on what a server or a child process does next,
/// where a fixed sleep would be either too short on a loaded machine or needlessly long.
/// The defaults suit state in this process (a server's counters, a held handler): cheap
/// to look at every millisecond, and given far longer than any stall of the machine.
public func pollUntil(
    every interval: Duration = .milliseconds(1), within limit: Duration = .seconds(30),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw PollTimeout(limit: limit) }
        try await Task.sleep(for: interval)  // the poll's own pace, not a wait for the event
    }
}

/// `pollUntil`'s condition did not hold in time.
public struct PollTimeout: Error, CustomStringConvertible {
    public let limit: Duration

    public var description: String { "condition not met within \(limit)" }
}
