import Dispatch
import Synchronization

/// Host name → addresses, off the event loops, for every client (the upstream HTTP
/// client and the store's RESP client): `getaddrinfo` blocks, so lookups run on one
/// dedicated serial queue per resolver (never a loop, never the cooperative pool). A
/// success is reused for `cacheSeconds`; a failure for at most `failureCacheSeconds`
/// (never longer than a success; 0 keeps none), so a dead resolver is not asked again
/// by every queued request. IP literals skip the lookup. IPv4 and IPv6 both. A caller
/// waits at most until its deadline: a slow lookup goes on in the background and its
/// answer still fills the cache.
package final class NameResolver: Sendable {
    /// Why no addresses came: each client maps these to its own error (resolving is
    /// part of connecting).
    package enum Failure: Error, Sendable, Equatable {
        /// The name does not resolve.
        case unresolvable(TransportError)
        /// The lookup had not answered by the caller's deadline.
        case timedOut
    }

    package typealias Answer = Result<[SocketAddress], Failure>
    /// The blocking lookup: `SocketAddress.resolve` outside tests.
    package typealias Lookup = @Sendable (String, UInt16) throws(TransportError) -> [SocketAddress]

    private struct Entry {
        var answer: Answer
        var expires: Deadline
    }

    private let cacheSeconds: Double
    private let failureCacheSeconds: Double
    private let lookup: Lookup
    private let queue: DispatchQueue
    private let cache = Mutex<[String: Entry]>([:])

    /// - Parameter label: the lookup queue's name, to tell the clients' queues apart.
    package init(
        label: String, cacheSeconds: Double, failureCacheSeconds: Double,
        lookup: @escaping Lookup = { host, port throws(TransportError) in
            try SocketAddress.resolve(host: host, port: port)
        }
    ) {
        self.cacheSeconds = cacheSeconds
        self.failureCacheSeconds = failureCacheSeconds
        self.lookup = lookup
        self.queue = DispatchQueue(label: label)
    }

    /// Answers once, from any thread (at once for an IP literal or a cached answer).
    package func resolve(
        host: String, port: UInt16, deadline: Deadline,
        completion: @escaping @Sendable (Answer) -> Void
    ) {
        if let ready = immediate(host: host, port: port) { return completion(ready) }
        let key = Self.key(host, port)
        let answer = FirstAnswer(completion)
        queue.async {
            // A lookup queued behind another for the same name finds its answer here.
            if let cached = self.cached(key) { return answer.give(cached) }
            let looked: Answer
            do throws(TransportError) {
                looked = .success(try self.lookup(host, port))
            } catch {
                looked = .failure(.unresolvable(error))
            }
            self.store(key, looked)
            answer.give(looked)
        }
        DispatchQueue.global().asyncAfter(deadline: deadline.dispatchTime) {
            answer.give(.failure(.timedOut))
        }
    }

    /// The same, awaited: the callback form behind a continuation, skipped when the
    /// answer is at hand.
    package func resolve(host: String, port: UInt16, deadline: Deadline) async -> Answer {
        if let ready = immediate(host: host, port: port) { return ready }
        return await withCheckedContinuation { continuation in
            resolve(host: host, port: port, deadline: deadline) { answer in
                continuation.resume(returning: answer)
            }
        }
    }

    /// An IP literal as it is, or a cached answer.
    private func immediate(host: String, port: UInt16) -> Answer? {
        if let literal = try? SocketAddress(ipAddress: host, port: port) {
            return .success([literal])
        }
        return cached(Self.key(host, port))
    }

    private static func key(_ host: String, _ port: UInt16) -> String { "\(host)|\(port)" }

    private func cached(_ key: String) -> Answer? {
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

    private func store(_ key: String, _ answer: Answer) {
        let now = Deadline.now
        var expires = Deadline.after(seconds: cacheSeconds, from: now)
        if case .failure = answer {
            guard failureCacheSeconds > 0 else { return }
            // Never longer than a success would be kept.
            expires = expires.earlier(.after(seconds: failureCacheSeconds, from: now))
        }
        cache.withLock { $0[key] = Entry(answer: answer, expires: expires) }
    }
}

/// Calls a completion with whichever answer comes first (the lookup or the caller's
/// deadline); later answers are dropped.
private final class FirstAnswer: Sendable {
    private let completion: Mutex<(@Sendable (NameResolver.Answer) -> Void)?>

    init(_ completion: @escaping @Sendable (NameResolver.Answer) -> Void) {
        self.completion = Mutex(completion)
    }

    func give(_ answer: NameResolver.Answer) {
        let waiting = completion.withLock { stored in
            defer { stored = nil }
            return stored
        }
        waiting?(answer)
    }
}
