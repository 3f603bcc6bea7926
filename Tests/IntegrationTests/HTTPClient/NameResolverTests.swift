import Testing
import Transport

@testable import HTTPClient

@Suite(.resourceClass(.integration)) struct NameResolverTests {
    @Test func resolvesLocalhostWithThePort() async throws {
        let resolver = NameResolver(cacheSeconds: 30)
        let addresses = try await resolver.resolve(host: "localhost", port: 8443)
        #expect(!addresses.isEmpty)
        #expect(addresses.allSatisfy { $0.port == 8443 })
        #expect(addresses.allSatisfy { $0.host == "127.0.0.1" || $0.host == "::1" })
        // A second lookup within the cache time gives the same answer.
        #expect(try await resolver.resolve(host: "localhost", port: 8443) == addresses)
    }

    @Test(arguments: ["127.0.0.1", "::1"])
    func takesIPLiteralsAsTheyAre(literal: String) async throws {
        let addresses = try await NameResolver(cacheSeconds: 30).resolve(host: literal, port: 80)
        #expect(addresses.map(\.host) == [literal])
    }

    /// `.invalid` never resolves (RFC 6761 §6.4).
    @Test func unknownNameIsUnreachable() async {
        await #expect {
            _ = try await NameResolver(cacheSeconds: 30).resolve(
                host: "no-such-host.invalid", port: 443)
        } throws: { error in
            guard case .unreachable = error as? HTTPClientError else { return false }
            return true
        }
    }
}
