import Dispatch
import Synchronization
import Transport

/// Host name → addresses, off the event loops: `getaddrinfo` blocks, so lookups run on
/// one dedicated serial queue (never a loop, never the cooperative pool), and answers
/// are reused for `cacheSeconds` (failures for at most `failureCacheSeconds`, so a dead
/// resolver is not asked again by every queued request). IP literals skip the lookup.
/// IPv4 and IPv6 both. A caller waits at most its own time budget: a slow lookup goes
/// on in the background and its answer still fills the cache.
final class NameResolver: Sendable {
    private struct Entry {
        var answer: Result<[SocketAddress], HTTPClientError>
        var expires: Deadline
    }

    private let cacheSeconds: Double
    private let failureCacheSeconds: Double
    private let queue = DispatchQueue(label: "tokenswap.client.resolver")
    private let cache = Mutex<[String: Entry]>([:])

    init(cacheSeconds: Double, failureCacheSeconds: Double = 5) {
        self.cacheSeconds = cacheSeconds
        self.failureCacheSeconds = failureCacheSeconds
    }

    /// - Throws: `.unreachable` when the name does not resolve, `.timeout(.connect)`
    ///   when the lookup has not answered by `deadline` (resolving is part of
    ///   connecting).
    func resolve(host: String, port: UInt16, deadline: Deadline = .after(seconds: 30))
        async throws(HTTPClientError) -> [SocketAddress]
    {
        if let literal = try? SocketAddress(ipAddress: host, port: port) { return [literal] }
        let key = "\(host)|\(port)"
        if let cached = cached(key) { return try cached.get() }
        let result: Result<[SocketAddress], HTTPClientError> = await withCheckedContinuation {
            continuation in
            let answer = FirstAnswer(continuation)
            queue.async {
                // A lookup queued behind another for the same name finds its answer here.
                if let cached = self.cached(key) { return answer.give(cached) }
                let looked: Result<[SocketAddress], HTTPClientError>
                do {
                    looked = .success(try SocketAddress.resolve(host: host, port: port))
                } catch {
                    looked = .failure(.unreachable(reason: "\(error)"))
                }
                self.store(key, looked)
                answer.give(looked)
            }
            DispatchQueue.global().asyncAfter(deadline: deadline.dispatchTime) {
                answer.give(.failure(.timeout(.connect)))
            }
        }
        return try result.get()
    }

    private func cached(_ key: String) -> Result<[SocketAddress], HTTPClientError>? {
        let now = Deadline.now
        return cache.withLock { table in
            guard let entry = table[key] else { return nil }
            guard !entry.expires.hasPassed(at: now) else {
                table[key] = nil
                return nil
            }
            return entry.answer
        }
    }

    private func store(_ key: String, _ answer: Result<[SocketAddress], HTTPClientError>) {
        let now = Deadline.now
        var expires = Deadline.after(seconds: cacheSeconds, from: now)
        if case .failure = answer {
            // Never longer than a success would be kept.
            expires = expires.earlier(.after(seconds: failureCacheSeconds, from: now))
        }
        cache.withLock { $0[key] = Entry(answer: answer, expires: expires) }
    }
}
