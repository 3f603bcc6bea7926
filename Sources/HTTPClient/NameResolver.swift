import Dispatch
import Synchronization
import Transport

/// Host name → addresses, off the event loops: `getaddrinfo` blocks, so lookups run on
/// one dedicated serial queue (never a loop, never the cooperative pool), and answers
/// are reused for `cacheSeconds`. IP literals skip the lookup. IPv4 and IPv6 both.
final class NameResolver: Sendable {
    private struct Entry {
        var addresses: [SocketAddress]
        var expires: ContinuousClock.Instant
    }

    private let cacheSeconds: Double
    private let queue = DispatchQueue(label: "tokenswap.client.resolver")
    private let cache = Mutex<[String: Entry]>([:])

    init(cacheSeconds: Double) {
        self.cacheSeconds = cacheSeconds
    }

    func resolve(host: String, port: UInt16) async throws(HTTPClientError) -> [SocketAddress] {
        if let literal = try? SocketAddress(ipAddress: host, port: port) { return [literal] }
        let key = "\(host)|\(port)"
        if let cached = cached(key) { return cached }
        let result: Result<[SocketAddress], HTTPClientError> = await withCheckedContinuation {
            continuation in
            queue.async {
                // A lookup queued behind another for the same name finds its answer here.
                if let cached = self.cached(key) {
                    continuation.resume(returning: .success(cached))
                    return
                }
                do {
                    let addresses = try SocketAddress.resolve(host: host, port: port)
                    self.store(key, addresses)
                    continuation.resume(returning: .success(addresses))
                } catch {
                    continuation.resume(returning: .failure(.unreachable(reason: "\(error)")))
                }
            }
        }
        return try result.get()
    }

    private func cached(_ key: String) -> [SocketAddress]? {
        let now = ContinuousClock.now
        return cache.withLock { table in
            guard let entry = table[key] else { return nil }
            guard entry.expires > now else {
                table[key] = nil
                return nil
            }
            return entry.addresses
        }
    }

    private func store(_ key: String, _ addresses: [SocketAddress]) {
        let expires = ContinuousClock.now + .milliseconds(Int64(cacheSeconds * 1000))
        cache.withLock { $0[key] = Entry(addresses: addresses, expires: expires) }
    }
}
