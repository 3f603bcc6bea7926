import Synchronization

/// Connections open per client address, so one client cannot hold all of a server's
/// connections (and with them its memory). Bounded: an address is in the table only
/// while it has a connection open.
public final class ClientConnectionCounts: Sendable {
    public let maxPerClient: Int
    private let counts = Mutex<[String: Int]>([:])

    public init(maxPerClient: Int) {
        self.maxPerClient = maxPerClient
    }

    /// Counts one more connection of `host`; false (not counted) when it already holds
    /// `maxPerClient`.
    func admit(_ host: String) -> Bool {
        counts.withLock { counts in
            let open = counts[host, default: 0]
            guard open < maxPerClient else { return false }
            counts[host] = open + 1
            return true
        }
    }

    func release(_ host: String) {
        counts.withLock { counts in
            guard let open = counts[host] else { return }
            counts[host] = open > 1 ? open - 1 : nil
        }
    }
}
