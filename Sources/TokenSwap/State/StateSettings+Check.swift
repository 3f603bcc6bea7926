import RESPClient
import Transport

extension StateSettings {
    /// `check-config`'s look at the store (CONTRACT §12): one `PING` within the timeout,
    /// on a loop of its own. Nil when it answered, else why not (never the password).
    package func unanswered(caFile: String?) async -> String? {
        let group = EventLoopGroup(loopCount: 1)
        let client: RESPClient
        do {
            client = try RESPClient(
                endpoint: endpoint, loops: group, timeout: timeout, caFile: caFile)
        } catch {
            return "\(error)"
        }
        defer { client.shutdown() }
        let store = RedisStateStore(client: client, loops: group)
        let result = await awaiting { store.ping(completion: $0) }
        switch result {
        case .success: return nil
        case .failure(let error): return error.reason
        }
    }
}
