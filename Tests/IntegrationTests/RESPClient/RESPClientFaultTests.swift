import RESPClient
import Synchronization
import TestSupport
import Testing
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// The client against peers that break the protocol on purpose (a raw loopback socket
/// played byte by byte): a server that never answers, one that resets mid-reply, one
/// that sends garbage, one that closes after reading a command. Each must end in a clear
/// error within the deadline, never a short success, and a command the server may have
/// run is never sent twice.
@Suite(.resourceClass(.deadlines)) struct RESPClientFaultTests {
    static let group = EventLoopGroup(loopCount: 1)

    private func client(port: UInt16, timeout: Duration = .seconds(30)) throws -> RESPClient {
        try RESPClient(
            endpoint: RESPEndpoint(url: "redis://127.0.0.1:\(port)"), loops: Self.group,
            timeout: timeout)
    }

    /// A socket that listens and never accepts: the kernel completes the handshake, the
    /// command is written, and no reply ever comes.
    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let (fd, port) = try Loopback.bind(listenBacklog: 8)
        defer { close(fd) }
        let store = try client(port: port, timeout: .milliseconds(500))
        defer { store.shutdown() }
        let start = Deadline.now
        await #expect(throws: RESPError.timedOut) { try await store.send([Array("PING".utf8)]) }
        // At least the timeout (CONTRACT §12); how much longer is a benchmark's question.
        #expect(Deadline.now.duration(since: start) >= .milliseconds(450))
    }

    /// Commands pile up on a store that does not answer only to a bound: one connection
    /// takes 256 in flight, and the rest are refused at once rather than queued without
    /// end; the 256 then time out.
    @Test func aStuckStoreFillsThePoolToItsBoundAndNoFurther() async throws {
        let (fd, port) = try Loopback.bind(listenBacklog: 8)
        defer { close(fd) }
        let store = try RESPClient(
            endpoint: RESPEndpoint(url: "redis://127.0.0.1:\(port)"), loops: Self.group,
            timeout: .seconds(1), maxConnectionsPerLoop: 1)
        defer { store.shutdown() }
        let results = await withTaskGroup(of: Result<RESPValue, RESPError>.self) { group in
            for _ in 0..<300 {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        store.send([Array("PING".utf8)]) { continuation.resume(returning: $0) }
                    }
                }
            }
            var all: [Result<RESPValue, RESPError>] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.filter { $0 == .failure(.poolExhausted) }.count == 44)
        #expect(results.filter { $0 == .failure(.timedOut) }.count == 256)
    }

    /// The same over `rediss://`: the TLS handshake itself is under the deadline.
    @Test func aTLSHandshakeThatNeverCompletesTimesOut() async throws {
        let (fd, port) = try Loopback.bind(listenBacklog: 8)
        defer { close(fd) }
        let store = try RESPClient(
            endpoint: RESPEndpoint(url: "rediss://127.0.0.1:\(port)"), loops: Self.group,
            timeout: .milliseconds(500))
        defer { store.shutdown() }
        await #expect(throws: RESPError.timedOut) { try await store.send([Array("PING".utf8)]) }
    }

    @Test(arguments: ["$10\r\nabc", "*2\r\n:1\r\n", "+PON"])
    func aResetMidReplyIsAnErrorNotAShortSuccess(partial: String) async throws {
        let peer = try RawRESPPeer { fd, peer in
            peer.read(fd, atLeast: 14)  // *1\r\n$4\r\nPING\r\n
            peer.write(fd, partial)
            peer.awaitDelivered(fd)
            peer.reset(fd)
        }
        let store = try client(port: peer.port)
        defer { store.shutdown() }
        await #expect(throws: RESPError.connectionClosed) {
            try await store.send([Array("PING".utf8)])
        }
    }

    /// The server read the command and closed without a reply: it may have run it, so
    /// the client does not send it again.
    @Test func aCommandTheServerMayHaveRunIsNotRetried() async throws {
        let peer = try RawRESPPeer { fd, peer in
            peer.read(fd, atLeast: 14)
        }
        let store = try client(port: peer.port)
        defer { store.shutdown() }
        await #expect(throws: RESPError.connectionClosed) {
            try await store.send([Array("PING".utf8)])
        }
        #expect(peer.connections.withLock { $0 } == 1)
        #expect(peer.received.withLock { $0 } == Array("*1\r\n$4\r\nPING\r\n".utf8))
    }

    @Test(arguments: [
        "%1\r\n", "+OK\n", "$-2\r\n", ":99999999999999999999\r\n", "$3\r\nabcd\r\n",
        "+OK\r\n+EXTRA\r\n",
    ])
    func garbageIsAProtocolViolationAndTheNextCommandGetsAFreshConnection(reply: String)
        async throws
    {
        let peer = try RawRESPPeer { fd, peer in
            let first = peer.connections.withLock { $0 } == 1
            peer.read(fd, atLeast: 14)
            peer.write(fd, first ? reply : "+PONG\r\n")
            // Open until the client drops it (the bad first) or shuts down (the second).
            peer.readUntilTheClientCloses(fd)
        }
        let store = try client(port: peer.port)
        defer { store.shutdown() }
        do {
            let value = try await store.send([Array("PING".utf8)])
            // Only the extra reply comes after a complete first one.
            #expect(reply == "+OK\r\n+EXTRA\r\n" && value == .simpleString("OK"))
        } catch {
            guard case .protocolViolation = error else {
                Issue.record("expected protocolViolation, got \(error)")
                return
            }
        }
        // The client drops the connection that broke the protocol (for the extra reply,
        // when it arrives after the first one was answered).
        try await pollUntil { peer.closedByTheClient.withLock { $0 } == 1 }
        #expect(try await store.send([Array("PING".utf8)]) == .simpleString("PONG"))
        #expect(peer.connections.withLock { $0 } == 2)
    }

    @Test func aRefusedPortIsConnectFailed() async throws {
        let (fd, port) = try Loopback.bind()  // bound, not listening: connects are refused
        defer { close(fd) }
        let store = try client(port: port)
        defer { store.shutdown() }
        do {
            _ = try await store.send([Array("PING".utf8)])
            Issue.record("a refused connect succeeded")
        } catch {
            guard case .connectFailed = error else {
                Issue.record("expected connectFailed, got \(error)")
                return
            }
        }
    }
}
