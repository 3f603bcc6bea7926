import Dispatch
import Synchronization
import Testing
import Transport

/// The resolver's cache policy, deadline and answer-once rule, with a counted stand-in
/// for `getaddrinfo`: no sockets, no DNS, no waiting on the wall clock.
@Suite struct NameResolverCacheTests {
    /// Counts lookups; answers `addresses`, or fails when nil.
    final class CountedLookup: Sendable {
        let calls = Atomic<Int>(0)
        let addresses: [SocketAddress]?

        init(_ addresses: [SocketAddress]?) { self.addresses = addresses }

        func lookup(host: String, port: UInt16) throws(TransportError) -> [SocketAddress] {
            calls.add(1, ordering: .sequentiallyConsistent)
            guard let addresses else { throw .unresolvable(host: host, code: 0) }
            return addresses
        }
    }

    static let found = [try! SocketAddress(ipAddress: "192.0.2.7", port: 443)]
    static let later = Deadline.after(seconds: 600)

    /// Cache times of an hour: what is kept stays kept however slowly a loaded machine runs
    /// the test (a 5 s failure cache once lapsed between two lookups of one test).
    static func resolver(
        _ counted: CountedLookup, cacheSeconds: Double = 3600, failureCacheSeconds: Double = 3600
    ) -> NameResolver {
        NameResolver(
            label: "test.resolver", cacheSeconds: cacheSeconds,
            failureCacheSeconds: failureCacheSeconds,
            lookup: { host, port throws(TransportError) in
                try counted.lookup(host: host, port: port)
            })
    }

    @Test func successIsKeptForTheCacheTime() async {
        let counted = CountedLookup(Self.found)
        let resolver = Self.resolver(counted)
        for _ in 0..<3 {
            let answer = await resolver.resolve(host: "a.example", port: 443, deadline: Self.later)
            #expect(answer == .success(Self.found))
        }
        #expect(counted.calls.load(ordering: .sequentiallyConsistent) == 1)
        // Another port is another name.
        _ = await resolver.resolve(host: "a.example", port: 80, deadline: Self.later)
        #expect(counted.calls.load(ordering: .sequentiallyConsistent) == 2)
    }

    @Test func nothingIsKeptWithNoCacheTime() async {
        let counted = CountedLookup(Self.found)
        let resolver = Self.resolver(counted, cacheSeconds: 0)
        _ = await resolver.resolve(host: "a.example", port: 443, deadline: Self.later)
        _ = await resolver.resolve(host: "a.example", port: 443, deadline: Self.later)
        #expect(counted.calls.load(ordering: .sequentiallyConsistent) == 2)
    }

    /// The upstream client keeps a failure a while, so a dead resolver is not asked by
    /// every queued request.
    @Test func failureIsKeptWhenAskedTo() async {
        let counted = CountedLookup(nil)
        let resolver = Self.resolver(counted)
        for _ in 0..<2 {
            let answer = await resolver.resolve(host: "b.example", port: 443, deadline: Self.later)
            #expect(answer == .failure(.unresolvable(.unresolvable(host: "b.example", code: 0))))
        }
        #expect(counted.calls.load(ordering: .sequentiallyConsistent) == 1)
    }

    /// The store's client keeps none: a reconnect after a DNS outage asks again.
    @Test func failureIsNotKeptWithNoFailureCacheTime() async {
        let counted = CountedLookup(nil)
        let resolver = Self.resolver(counted, failureCacheSeconds: 0)
        for _ in 0..<2 {
            let answer = await resolver.resolve(host: "b.example", port: 443, deadline: Self.later)
            #expect(answer == .failure(.unresolvable(.unresolvable(host: "b.example", code: 0))))
        }
        #expect(counted.calls.load(ordering: .sequentiallyConsistent) == 2)
    }

    /// A failure is never kept longer than a success would be.
    @Test func failureIsKeptNoLongerThanASuccess() async {
        let counted = CountedLookup(nil)
        let resolver = Self.resolver(counted, cacheSeconds: 0, failureCacheSeconds: 5)
        _ = await resolver.resolve(host: "b.example", port: 443, deadline: Self.later)
        _ = await resolver.resolve(host: "b.example", port: 443, deadline: Self.later)
        #expect(counted.calls.load(ordering: .sequentiallyConsistent) == 2)
    }

    @Test(arguments: ["127.0.0.1", "::1"])
    func literalsSkipTheLookup(literal: String) async throws {
        let counted = CountedLookup(nil)
        let resolver = Self.resolver(counted)
        let answer = await resolver.resolve(host: literal, port: 80, deadline: Self.later)
        #expect(try answer.get().map { $0.host } == [literal])
        let called = await withCheckedContinuation { continuation in
            resolver.resolve(host: literal, port: 80, deadline: Self.later) {
                continuation.resume(returning: $0)
            }
        }
        #expect(try called.get().map { $0.host } == [literal])
        #expect(counted.calls.load(ordering: .sequentiallyConsistent) == 0)
    }

    /// A lookup still running at the caller's deadline answers `.timedOut`, once; the
    /// lookup goes on and its answer fills the cache for the next caller.
    @Test func passedDeadlineTimesOutAndTheLookupStillFillsTheCache() async {
        let gate = DispatchSemaphore(value: 0)
        let counted = CountedLookup(Self.found)
        let resolver = NameResolver(
            label: "test.resolver", cacheSeconds: 30, failureCacheSeconds: 5,
            lookup: { host, port throws(TransportError) in
                gate.wait()
                return try counted.lookup(host: host, port: port)
            })
        let answers = Mutex<[NameResolver.Answer]>([])
        let first = await withCheckedContinuation { continuation in
            resolver.resolve(host: "c.example", port: 443, deadline: .now) { answer in
                let isFirst = answers.withLock { list in
                    list.append(answer)
                    return list.count == 1
                }
                if isFirst { continuation.resume(returning: answer) }
            }
        }
        #expect(first == .failure(.timedOut))
        gate.signal()
        // Queued behind the running lookup, this one finds its answer in the cache.
        let second = await resolver.resolve(host: "c.example", port: 443, deadline: Self.later)
        #expect(second == .success(Self.found))
        #expect(counted.calls.load(ordering: .sequentiallyConsistent) == 1)
        #expect(answers.withLock { $0.count } == 1)
    }
}
