import Foundation
import Synchronization
import TestSupport
import Testing
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// The client side of Transport against its own listener: both ends real sockets.
@Suite(.serialized, .resourceClass(.deadlines)) struct SocketChannelTests {
    /// Accepted channels echo what they read, until EOF.
    static func echoListener(_ group: EventLoopGroup) throws -> Listener {
        let listener = try Listener(
            address: SocketAddress(ipAddress: "127.0.0.1", port: 0), group: group,
            maxConnections: 10)
        listener.start { channel in
            var buffer: [UInt8] = []
            channel.setReadHandler {
                switch channel.receive(into: &buffer) {
                case .received:
                    let bytes = buffer
                    buffer = []
                    channel.send(bytes) { _ in }
                case .wouldBlock:
                    break
                case .endOfFile, .failed:
                    channel.close()
                }
            }
            channel.resumeReading()
        }
        return listener
    }

    @Test func connectsSendsAndReceives() async throws {
        let group = EventLoopGroup(loopCount: 2)
        let listener = try Self.echoListener(group)
        defer { listener.stop() }
        let loop = group.next()
        let channel = try await SocketChannel.connect(
            to: listener.localAddress, on: loop, deadline: .after(seconds: 2))
        #expect(channel.peerAddress == listener.localAddress)
        let echoed: [UInt8] = await withCheckedContinuation { continuation in
            loop.execute {
                var received: [UInt8] = []
                let payload = [UInt8](repeating: 7, count: 200_000)
                channel.setReadHandler {
                    switch channel.receive(into: &received) {
                    case .received where received.count >= payload.count:
                        channel.close()
                        continuation.resume(returning: received)
                    case .received, .wouldBlock:
                        break
                    case .endOfFile, .failed:
                        channel.close()
                        continuation.resume(returning: received)
                    }
                }
                channel.resumeReading()
                channel.send(payload) { _ in }
            }
        }
        #expect(echoed == [UInt8](repeating: 7, count: 200_000))
    }

    @Test func aRefusedConnectFailsWithItsErrno() async throws {
        // Bind then close a listener: its port is now (almost certainly) closed.
        let group = EventLoopGroup(loopCount: 1)
        let listener = try Listener(
            address: SocketAddress(ipAddress: "127.0.0.1", port: 0), group: group,
            maxConnections: 1)
        let address = listener.localAddress
        listener.stop()
        try await Task.sleep(for: .milliseconds(50))
        await #expect(throws: TransportError.connectFailed(errno: ECONNREFUSED)) {
            _ = try await SocketChannel.connect(
                to: address, on: group.next(), deadline: .after(seconds: 2))
        }
    }

    @Test func aConnectThatNeverCompletesTimesOut() async throws {
        // A listener with a backlog of 0 that never accepts: once its queue is full the
        // kernel drops further SYNs, so the next connect hangs until our deadline.
        let (fd, port) = try Loopback.bind(listenBacklog: 0)
        defer { Glibc.close(fd) }
        let target = try SocketAddress(ipAddress: "127.0.0.1", port: port)
        let group = EventLoopGroup(loopCount: 1)
        var filled: [SocketChannel] = []
        var timedOut = false
        let started = Date()
        // Fill the accept queue; the first connect that cannot complete must time out.
        for _ in 0..<8 {
            do {
                filled.append(
                    try await SocketChannel.connect(
                        to: target, on: group.next(), deadline: .after(seconds: 0.3)))
            } catch {
                #expect(error == .connectTimedOut)
                timedOut = true
                break
            }
        }
        #expect(timedOut)
        #expect(Date().timeIntervalSince(started) < 3)
        let loop = group.loops[0]
        loop.execute { [filled] in filled.forEach { $0.close() } }
    }

    /// A wait that finds one socket readable and another whose peer closed hands the
    /// hang-up over first, though it came second: a pooled upstream connection the server
    /// closed is retired before a request in the same wait could take it (HTTPClient's
    /// look before writing relies on it).
    @Test func aHangUpIsHandledBeforeTheOtherEventsOfItsWait() async throws {
        let group = EventLoopGroup(loopCount: 1)
        let loop = group.loops[0]
        let listener = try Listener(
            address: SocketAddress(ipAddress: "127.0.0.1", port: 0), group: group,
            maxConnections: 10)
        defer { listener.stop() }
        let handled = Mutex<[String]>([])
        let accepted = Mutex<[SocketChannel]>([])
        listener.start { channel in
            let name = accepted.withLock { list in
                list.append(channel)
                return list.count == 1 ? "data" : "hang-up"
            }
            var buffer: [UInt8] = []
            channel.setReadHandler {
                handled.withLock { $0.append(name) }
                switch channel.receive(into: &buffer) {
                case .received, .wouldBlock: break
                case .endOfFile, .failed: channel.close()
                }
            }
            channel.resumeReading()
        }
        let port = listener.localAddress.port
        let first = try Loopback.connect(port: port)
        defer { Glibc.close(first) }
        try await Self.until { accepted.withLock { $0.count } == 1 }
        let second = try Loopback.connect(port: port)
        try await Self.until { accepted.withLock { $0.count } == 2 }
        // Hold the loop while both events arrive, the data first, so one wait sees both.
        let holding = DispatchSemaphore(value: 0)
        let held = DispatchSemaphore(value: 0)
        loop.execute {
            held.signal()
            holding.wait()
        }
        held.wait()
        #expect(Glibc.write(first, "x", 1) == 1)
        Glibc.close(second)
        try await Task.sleep(for: .milliseconds(100))
        holding.signal()
        try await Self.until { handled.withLock { $0.count } >= 2 }
        #expect(Array(handled.withLock { $0 }.prefix(2)) == ["hang-up", "data"])
        loop.execute { accepted.withLock { $0.forEach { $0.close() } } }
    }

    static func until(_ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(5)
        while !condition() {
            guard Date() < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
