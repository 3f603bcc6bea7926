import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.resourceClass(.processes)) struct ListeningSocketsOfAProcessTests {
    @Test func aListeningSocketIsSeenAndABoundOneIsNot() throws {
        let listening = try Loopback.bind(listenBacklog: 1)
        defer { close(listening.descriptor) }
        let bound = try Loopback.bind()
        defer { close(bound.descriptor) }
        let found = try ListeningSockets.of(pid: getpid())
        #expect(found.contains(.init(host: "127.0.0.1", port: listening.port)))
        #expect(!found.contains { $0.port == bound.port })
    }
}
