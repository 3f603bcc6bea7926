import ClientStream
import TLS
import TestSupport
import Testing
import Transport

/// The stream the upstream and store clients both read and write through, on its own:
/// a real loopback socket to a peer that echoes, says nothing, or hangs up, plain and
/// through TLS with the test PKI's localhost certificate.
@Suite(.resourceClass(.integration)) struct ClientStreamTests {
    enum Peer {
        /// Sends back every byte (every plaintext byte, through TLS).
        case echo
        /// Accepts and never answers.
        case silent
        /// Closes each connection as it is accepted.
        case hangUp
    }

    /// A peer on 127.0.0.1 that behaves as `peer`, through a server TLS session when
    /// `tls` is given.
    static func listen(_ peer: Peer, tls: TLSServerContext?, group: EventLoopGroup) throws
        -> Listener
    {
        let listener = try Listener(
            address: SocketAddress(ipAddress: "127.0.0.1", port: 0), group: group,
            maxConnections: 4)
        listener.start { channel in
            switch peer {
            case .silent: return
            case .hangUp: return channel.close()
            case .echo: break
            }
            let engine = tls.flatMap { try? TLSEngine(context: $0) }
            var received: [UInt8] = []
            var scratch = [UInt8](repeating: 0, count: 16 * 1024)
            channel.setReadHandler {
                switch channel.receive(into: &received) {
                case .received: break
                case .wouldBlock: return
                case .endOfFile, .failed: return channel.close()
                }
                guard let engine else {
                    channel.send(received) { _ in }
                    return received.removeAll()
                }
                received.withUnsafeBytes { engine.receiveCiphertext($0) }
                received.removeAll()
                if !engine.handshakeComplete, (try? engine.handshake()) == nil {
                    return channel.close()
                }
                var plaintext: [UInt8] = []
                if engine.handshakeComplete {
                    _ = scratch.withUnsafeMutableBytes {
                        try? engine.drainPlaintext(into: &plaintext, scratch: $0)
                    }
                }
                _ = plaintext.withUnsafeBytes { try? engine.writePlaintext($0) }
                var out: [UInt8] = []
                engine.takeCiphertext(into: &out)
                if !out.isEmpty { channel.send(out) { _ in } }
            }
            channel.resumeReading()
        }
        return listener
    }

    /// A stream connected to `listener`, TLS to `serverName` when `tls`.
    static func connect(
        to listener: Listener, on loop: EventLoop, tls: Bool, serverName: String = "localhost"
    ) async throws -> ClientStream {
        let channel = try await SocketChannel.connect(
            to: listener.localAddress, on: loop, deadline: .after(seconds: 30))
        let context = try await offPool { TestPKI.shared }.caFile
        let clientContext = tls ? try TLSClientContext(extraCAFilePath: context) : nil
        return await withCheckedContinuation { continuation in
            loop.execute {
                let engine = clientContext.flatMap {
                    try? TLSEngine(context: $0, serverName: serverName)
                }
                continuation.resume(returning: ClientStream(channel: channel, tls: engine))
            }
        }
    }

    /// The handshake's outcome by `deadline`, reads routed to it meanwhile.
    static func handshake(_ stream: ClientStream, by deadline: Deadline) async
        -> Result<Void, ClientStream.HandshakeFailure>
    {
        await withCheckedContinuation { continuation in
            stream.loop.execute {
                stream.channel.setReadHandler { stream.handshakeReadable() }
                stream.channel.resumeReading()
                stream.handshake(by: deadline) { continuation.resume(returning: $0) }
            }
        }
    }

    static func serverContext() async throws -> TLSServerContext {
        let pki = try await offPool { TestPKI.shared }
        return try TLSServerContext(
            certificateChainFile: pki.cert("good"), keyFile: pki.key("good"))
    }

    @Test(arguments: [false, true]) func writesAndReadsBackThroughOneStream(tls: Bool)
        async throws
    {
        let group = EventLoopGroup(loopCount: 1)
        let listener = try Self.listen(
            .echo, tls: tls ? try await Self.serverContext() : nil, group: group)
        defer { listener.stop() }
        let stream = try await Self.connect(to: listener, on: group.next(), tls: tls)
        if tls {
            let outcome = await Self.handshake(stream, by: .after(seconds: 30))
            #expect((try? outcome.get()) != nil)
        }
        let message = Array("PING\r\n".utf8)
        let (echoed, stayedIdle): ([UInt8], Bool) = await withCheckedContinuation {
            continuation in
            stream.loop.execute {
                stream.channel.setReadHandler {
                    let intake = stream.readAvailable()
                    guard case .open = intake, stream.plaintext.count < message.count else {
                        stream.channel.pauseReading()
                        let echoed = stream.plaintext
                        stream.plaintext.removeAll()
                        // Nothing more comes unasked: the stream is idle and still open.
                        return continuation.resume(returning: (echoed, stream.stayedIdle()))
                    }
                }
                stream.channel.resumeReading()
                do throws(TLSRecordError) {
                    try stream.write(message) { _ in }
                } catch {
                    Issue.record("\(error)")
                }
            }
        }
        #expect(echoed == message)
        #expect(stayedIdle)
        stream.loop.execute { stream.close() }
    }

    /// How a TLS handshake with `peer` (serving the localhost certificate when
    /// `serverTLS`) ends within `seconds` of its start, as the client names the server
    /// `serverName`. The deadline starts with the handshake, after the listener, the test
    /// PKI and the connect are ready, so a slow set-up on a loaded machine does not eat it.
    static func handshakeOutcome(
        with peer: Peer, serverTLS: Bool = false, serverName: String = "localhost",
        within seconds: Double
    ) async throws -> Result<Void, ClientStream.HandshakeFailure> {
        let group = EventLoopGroup(loopCount: 1)
        let listener = try Self.listen(
            peer, tls: serverTLS ? try await Self.serverContext() : nil, group: group)
        defer { listener.stop() }
        let stream = try await Self.connect(
            to: listener, on: group.next(), tls: true, serverName: serverName)
        let outcome = await Self.handshake(stream, by: .after(seconds: seconds))
        stream.loop.execute { stream.close() }
        return outcome
    }

    @Test func aSilentServerEndsTheHandshakeAtItsDeadline() async throws {
        let outcome = try await Self.handshakeOutcome(with: .silent, within: 0.2)
        guard case .failure(.timedOut) = outcome else {
            Issue.record("expected .timedOut, got \(outcome)")
            return
        }
    }

    @Test func aCertificateForAnotherNameFailsTheHandshake() async throws {
        let outcome = try await Self.handshakeOutcome(
            with: .echo, serverTLS: true, serverName: "example.com", within: 5)
        guard case .failure(.tls(.hostnameMismatch)) = outcome else {
            Issue.record("expected .tls(.hostnameMismatch), got \(outcome)")
            return
        }
    }

    @Test func aServerThatHangsUpFailsTheHandshakeBeforeItsDeadline() async throws {
        let outcome = try await Self.handshakeOutcome(with: .hangUp, within: 30)
        // The hang-up reads as an end of stream or a reset, or the ClientHello's send
        // meets the reset: either way not the deadline.
        switch outcome {
        case .failure(.tls), .failure(.send): break
        default: Issue.record("expected a TLS or send failure, got \(outcome)")
        }
    }

    @Test func anIdleStreamTheServerClosedDidNotStayIdle() async throws {
        let group = EventLoopGroup(loopCount: 1)
        let listener = try Self.listen(.hangUp, tls: nil, group: group)
        defer { listener.stop() }
        let stream = try await Self.connect(to: listener, on: group.next(), tls: false)
        let stayedIdle = await withCheckedContinuation { continuation in
            stream.loop.execute {
                // The first readable event is the hang-up.
                stream.channel.setReadHandler {
                    stream.channel.pauseReading()
                    continuation.resume(returning: stream.stayedIdle())
                }
                stream.channel.resumeReading()
            }
        }
        #expect(!stayedIdle)
        stream.loop.execute { stream.close() }
    }
}
