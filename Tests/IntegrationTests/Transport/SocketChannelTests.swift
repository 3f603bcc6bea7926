import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Transport

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
        // The listening socket closes on the listener's queue: until connects are refused.
        try await pollUntil(every: .milliseconds(5)) {
            (try? Loopback.connect(port: address.port)).map { Glibc.close($0) } == nil
        }
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
        let loop = group.loops[0]
        loop.execute { [filled] in filled.forEach { $0.close() } }
    }

    /// A wait that finds one socket readable, another whose peer closed and a third
    /// marked idle (`markIdle`) readable, in that order, hands the hang-up and the marked one
    /// over first: a pooled connection the server closed, or sent stray bytes on, is
    /// retired before a request in the same wait could take it. While that first pass runs
    /// `closesSeenThrough` promises nothing (0); after it, it names the wait.
    @Test func hangUpsAndMarkedChannelsAreHandledBeforeTheOtherEventsOfTheirWait() async throws {
        let group = EventLoopGroup(loopCount: 1)
        let loop = group.loops[0]
        let listener = try Listener(
            address: SocketAddress(ipAddress: "127.0.0.1", port: 0), group: group,
            maxConnections: 10)
        defer { listener.stop() }
        let names = ["data", "hang-up", "marked"]
        let handled = Mutex<[(name: String, wait: UInt64, closesSeenThrough: UInt64)]>([])
        let accepted = Mutex<[SocketChannel]>([])
        listener.start { channel in
            let name = accepted.withLock { list in
                list.append(channel)
                return names[list.count - 1]
            }
            if name == "marked" { channel.markIdle() }
            var buffer: [UInt8] = []
            channel.setReadHandler {
                handled.withLock { $0.append((name, loop.wait, loop.closesSeenThrough)) }
                switch channel.receive(into: &buffer) {
                case .received, .wouldBlock: break
                case .endOfFile, .failed: channel.close()
                }
            }
            channel.resumeReading()
        }
        let port = listener.localAddress.port
        var sockets: [Int32] = []
        defer { sockets.forEach { _ = Glibc.close($0) } }
        for count in 1...3 {
            sockets.append(try Loopback.connect(port: port))
            try await pollUntil { accepted.withLock { $0.count } == count }
        }
        // Hold the loop while the three events arrive, so one wait sees them all.
        let holding = DispatchSemaphore(value: 0)
        let held = DispatchSemaphore(value: 0)
        loop.execute {
            held.signal()
            holding.wait()
        }
        held.wait()
        #expect(Glibc.write(sockets[0], "x", 1) == 1)
        #expect(Glibc.close(sockets[1]) == 0)
        sockets[1] = -1
        #expect(Glibc.write(sockets[2], "y", 1) == 1)
        // All three have arrived on the server's sockets before the loop may wait again.
        let serverSides = accepted.withLock { $0.map(\.fd) }
        try await pollUntil {
            Loopback.hasBytesToRead(serverSides[0]) && Loopback.peerHasClosed(serverSides[1])
                && Loopback.hasBytesToRead(serverSides[2])
        }
        holding.signal()
        try await pollUntil { handled.withLock { $0.count } >= 3 }
        let first = Array(handled.withLock { $0 }.prefix(3))
        #expect(first.map(\.name) == ["hang-up", "marked", "data"])
        #expect(first.allSatisfy { $0.wait == first[0].wait })
        #expect(first.prefix(2).allSatisfy { $0.closesSeenThrough == 0 })
        #expect(first[2].closesSeenThrough == first[2].wait)
        loop.execute { accepted.withLock { $0.forEach { $0.close() } } }
    }
}
