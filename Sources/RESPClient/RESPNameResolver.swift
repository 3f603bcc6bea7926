import Dispatch
import Synchronization
import Transport

/// The store's host name → addresses, off the event loops, as HTTPClient's NameResolver
/// does it: `getaddrinfo` blocks, so lookups run on one dedicated serial queue (never a
/// loop, never the cooperative pool); a success is reused for `cacheSeconds`; a caller
/// waits at most until its deadline while a slow lookup goes on in the background. IP
/// literals skip the lookup. Failures are not kept: a reconnect after a DNS outage asks
/// again, and opens are few (one at a time per loop while no connection is up).
final class RESPNameResolver: Sendable {
    private struct Entry {
        var addresses: [SocketAddress]
        var expires: Deadline
    }

    private let cacheSeconds: Double
    private let queue = DispatchQueue(label: "tokenswap.store.resolver")
    private let cache = Mutex<[String: Entry]>([:])

    init(cacheSeconds: Double = 30) {
        self.cacheSeconds = cacheSeconds
    }

    /// Answers once, from any thread: the addresses, `.connectFailed` when the name does
    /// not resolve, or `.timedOut` when the lookup has not answered by `deadline`.
    func resolve(
        host: String, port: UInt16, deadline: Deadline,
        completion: @escaping @Sendable (Result<[SocketAddress], RESPError>) -> Void
    ) {
        if let literal = try? SocketAddress(ipAddress: host, port: port) {
            return completion(.success([literal]))
        }
        let key = "\(host)|\(port)"
        if let cached = cached(key) { return completion(.success(cached)) }
        let answer = RESPFirstAnswer(completion)
        queue.async {
            // A lookup queued behind another for the same name finds its answer here.
            if let cached = self.cached(key) { return answer.give(.success(cached)) }
            do {
                let found = try SocketAddress.resolve(host: host, port: port)
                self.cache.withLock {
                    $0[key] = Entry(addresses: found, expires: .after(seconds: self.cacheSeconds))
                }
                answer.give(.success(found))
            } catch {
                answer.give(.failure(.connectFailed(reason: "\(error)")))
            }
        }
        DispatchQueue.global().asyncAfter(deadline: deadline.dispatchTime) {
            answer.give(.failure(.timedOut))
        }
    }

    private func cached(_ key: String) -> [SocketAddress]? {
        let now = Deadline.now
        return cache.withLock { table in
            guard let entry = table[key] else { return nil }
            guard !entry.expires.hasPassed(at: now) else {
                table[key] = nil
                return nil
            }
            return entry.addresses
        }
    }
}

/// Calls a completion with whichever answer comes first (the lookup or the deadline);
/// later answers are dropped.
final class RESPFirstAnswer: Sendable {
    private let completion: Mutex<(@Sendable (Result<[SocketAddress], RESPError>) -> Void)?>

    init(_ completion: @escaping @Sendable (Result<[SocketAddress], RESPError>) -> Void) {
        self.completion = Mutex(completion)
    }

    func give(_ answer: Result<[SocketAddress], RESPError>) {
        let waiting = completion.withLock { stored in
            defer { stored = nil }
            return stored
        }
        waiting?(answer)
    }
}
