import HTTPClient
import RESPClient
import Testing
import Transport

/// The shared resolver against the system's real `getaddrinfo`, in both its forms, and
/// what each client makes of a name that does not resolve.
@Suite(.resourceClass(.integration)) struct NameResolverTests {
    static func resolver() -> NameResolver {
        NameResolver(label: "test.resolver", cacheSeconds: 30, failureCacheSeconds: 5)
    }

    static let soon = Deadline.after(seconds: 30)

    @Test func resolvesLocalhostWithThePort() async throws {
        let resolver = Self.resolver()
        let addresses = try await resolver.resolve(
            host: "localhost", port: 8443, deadline: Self.soon
        ).get()
        #expect(!addresses.isEmpty)
        #expect(addresses.allSatisfy { $0.port == 8443 })
        #expect(addresses.allSatisfy { $0.host == "127.0.0.1" || $0.host == "::1" })
        // A second lookup within the cache time gives the same answer.
        #expect(
            try await resolver.resolve(host: "localhost", port: 8443, deadline: Self.soon).get()
                == addresses)
    }

    /// The callback form (the store's client) answers the same as the awaited one.
    @Test func callbackFormResolvesLocalhost() async throws {
        let resolver = Self.resolver()
        let answer = await withCheckedContinuation { continuation in
            resolver.resolve(host: "localhost", port: 6379, deadline: Self.soon) {
                continuation.resume(returning: $0)
            }
        }
        let addresses = try answer.get()
        #expect(!addresses.isEmpty)
        #expect(addresses.allSatisfy { $0.port == 6379 })
    }

    @Test(arguments: ["127.0.0.1", "::1"])
    func takesIPLiteralsAsTheyAre(literal: String) async throws {
        let addresses = try await Self.resolver().resolve(
            host: literal, port: 80, deadline: Self.soon
        ).get()
        #expect(addresses.map { $0.host } == [literal])
    }

    /// `.invalid` never resolves (RFC 6761 §6.4): the upstream client calls that
    /// unreachable, the store's client a failed connect.
    @Test func unknownNameIsUnreachable() async {
        let answer = await Self.resolver().resolve(
            host: "no-such-host.invalid", port: 443, deadline: Self.soon)
        guard case .failure(let failure) = answer, case .unresolvable = failure else {
            Issue.record("expected .unresolvable, got \(answer)")
            return
        }
        guard case .unreachable = HTTPClientError(failure) else {
            Issue.record("expected .unreachable, got \(HTTPClientError(failure))")
            return
        }
        guard case .connectFailed = RESPError(failure) else {
            Issue.record("expected .connectFailed, got \(RESPError(failure))")
            return
        }
    }
}
