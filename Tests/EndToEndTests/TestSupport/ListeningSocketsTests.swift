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

    /// Found however long the table is: among many other listeners, one may sit past the
    /// first page the kernel hands out (a reader that stops at a short read misses it).
    @Test func aListenerAfterManySocketsIsSeen() throws {
        let others = try (0..<300).map { _ in try Loopback.bind(listenBacklog: 1) }
        defer { for other in others { close(other.descriptor) } }
        let listening = try Loopback.bind(listenBacklog: 1)
        defer { close(listening.descriptor) }
        #expect(
            try ListeningSockets.of(pid: getpid()).contains(
                .init(host: "127.0.0.1", port: listening.port)))
    }
}
