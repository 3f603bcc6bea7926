import Synchronization
import Transport

/// The connections of one listener that wait for a request head (new and silent, or
/// idle between requests), oldest first, so the listener can close the oldest to make
/// room instead of refusing a new connection because idle ones fill its cap (CONTRACT
/// §15: the admin port's probes must get in while a client holds connections to it).
///
/// Thread-safe: the listener asks from its accept queue; connections register from
/// their loops.
final class WaitingConnections: Sendable {
    private struct Entry {
        let client: ClientConnectionCounts.ClientKey?
        /// Closes the connection on its loop.
        let close: @Sendable () -> Void
    }

    private struct Table {
        var nextSerial: UInt64 = 0
        /// By the serial of when each began waiting: the smallest waited longest.
        var entries: [UInt64: Entry] = [:]
    }

    private let table = Mutex(Table())

    /// Records a connection that now waits for a head; returns the token to `remove` it
    /// with when a head arrives or it closes.
    func add(
        client: ClientConnectionCounts.ClientKey?, close: @escaping @Sendable () -> Void
    ) -> UInt64 {
        table.withLock { table in
            let serial = table.nextSerial
            table.nextSerial &+= 1
            table.entries[serial] = Entry(client: client, close: close)
            return serial
        }
    }

    func remove(_ token: UInt64) {
        _ = table.withLock { $0.entries.removeValue(forKey: token) }
    }

    /// Closes the connection that has waited longest (of `client`'s, when given).
    /// - Returns: false when none waits.
    func closeOldest(of client: ClientConnectionCounts.ClientKey?) -> Bool {
        let chosen = table.withLock { table -> Entry? in
            let oldest = table.entries.filter { client == nil || $0.value.client == client }
                .keys.min()
            guard let oldest else { return nil }
            return table.entries.removeValue(forKey: oldest)
        }
        guard let chosen else { return false }
        chosen.close()
        return true
    }

    /// How many wait now (for tests).
    var count: Int { table.withLock { $0.entries.count } }
}
