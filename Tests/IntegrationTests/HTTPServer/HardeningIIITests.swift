import Foundation
import HTTPCore
import HTTPServer
import TLS
import TestSupport
import Testing

@testable import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// CONTRACT §15 on the server's side (issue 18): stalled heads count against the request
/// budget with and without TLS, output waiting for a silent reader is bounded in every
/// phase, and a listener with a cap of its own (the admin port) stays usable while one
/// client holds connections to it.
@Suite(.serialized, .resourceClass(.deadlines)) struct HardeningIIITests {
    /// A request line and fields that never end: `bytes` long.
    static func partialHead(bytes: Int) -> String {
        var head = "GET /hello HTTP/1.1\r\nHost: x\r\n"
        while head.utf8.count < bytes {
            head += "X-Stall: " + String(repeating: "a", count: 1000) + "\r\n"
        }
        return head + "X-Last: a"
    }

    @Test func stalledHeadsCountAgainstTheBudgetAndGiveTheirShareBack() async throws {
        // 64 KiB: room for a few 8 KB heads (their buffers), not for 20.
        try await TestServer.with({ $0.maxBodyBytesInFlight = 64 * 1024 }) { server, port in
            var held: [RawClient] = []
            var refused = 0
            for _ in 0..<20 {
                let client = try RawClient(port: port)
                try await client.send(Self.partialHead(bytes: 8000))
                held.append(client)
            }
            // Polled: a loaded machine may take a while to read them all.
            var pending = held
            try? await pollUntil(every: .milliseconds(20)) {
                var still: [RawClient] = []
                for client in pending {
                    if try await client.readsEOFOrAnswer(503) {
                        refused += 1
                    } else {
                        still.append(client)
                    }
                }
                pending = still
                return refused >= 10
            }
            // Before: every head was held (20 × 8 KB outside any budget).
            #expect(refused >= 10, "\(refused) of 20 stalled heads refused")
            #expect(refused < 20)
            // The refused ones and then the rest leave: the budget comes back whole.
            held = []
            pending = []
            try await pollUntil(every: .milliseconds(10)) { server.bodyBytesInFlight == 0 }
            let next = try RawClient(port: port)
            try await next.send(Self.partialHead(bytes: 8000) + "\r\n\r\n")
            #expect(try await next.readResponse().statusCode == 200)
        }
    }

    @Test func stalledHeadsOverTLSCountTheirIncompleteRecordToo() async throws {
        let (store, caFile) = try await HTTPSConnectionTests.store()
        let context = try TLSClientContext(extraCAFilePath: caFile)
        try await TestServer.with({
            $0.tls = store
            $0.maxBodyBytesInFlight = 64 * 1024
        }) { _, port in
            var sessions: [TLSTestClient] = []
            var refused = 0
            for _ in 0..<20 {
                let session = try await TLSTestClient.connect(port: port, context: context)
                // A record that announces 16 KiB and sends 8 KB: only ciphertext held.
                try session.sendRawPartialRecord(announced: 16 * 1024, sent: 8000)
                sessions.append(session)
            }
            var pending = sessions
            try? await pollUntil(every: .milliseconds(20)) {
                let still = pending.filter { !$0.serverGaveUp() }
                refused += pending.count - still.count
                pending = still
                return refused >= 10
            }
            #expect(refused >= 10, "\(refused) of 20 stalled records refused")
        }
    }

    @Test func aKeyUpdateFloodThatIsNeverReadClosesTheConnection() async throws {
        let (store, caFile) = try await HTTPSConnectionTests.store()
        let context = try TLSClientContext(extraCAFilePath: caFile)
        try await TestServer.with({
            $0.tls = store
            // Only the output bound may end it, not the header deadline.
            $0.headerTimeoutSeconds = 120
        }) { _, port in
            let session = try await TLSTestClient.connect(
                port: port, context: context, receiveBufferBytes: 4096)
            // Each KeyUpdate asks the server for one in return, which it must queue while
            // nobody reads. Before: it queued them all (megabytes) and never closed.
            let sent = try await offPool { session.floodKeyUpdates(upTo: 1_000_000) }
            #expect(sent < 1_000_000, "the server read \(sent) KeyUpdates without closing")
        }
    }

    @Test func anAdminListenerMakesRoomForAProbeWhileOneClientHoldsIt() async throws {
        try await TestServer.with { server, _ in
            let admin = try server.addListener(
                host: "127.0.0.1", port: 0, router: TestServer.router(), maxConnections: 6,
                maxConnectionsPerClient: 3, headerTimeoutSeconds: 30)
            // More silent connections than the client's share and the listener's cap.
            var silent: [RawClient] = []
            for _ in 0..<12 { silent.append(try RawClient(port: admin.port)) }
            // All 12 accepted: the client's share holds 3, each later one closed the oldest
            // waiting one to take its place.
            try await pollUntil(every: .milliseconds(10)) {
                silent.filter { Loopback.peerHasClosed($0.fd) }.count == 9
            }
            let probe = try RawClient(port: admin.port, receiveTimeoutSeconds: 30)
            try await probe.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            // Before: no answer at all (the client's share and the cap were full).
            #expect(try await probe.readResponse().statusCode == 200)
            _ = silent
        }
    }

    @Test func anAdminListenerLetsASilentConnectionGoAtItsOwnHeaderDeadline() async throws {
        try await TestServer.with({ $0.headerTimeoutSeconds = 120 }) { server, _ in
            let admin = try server.addListener(
                host: "127.0.0.1", port: 0, router: TestServer.router(), maxConnections: 6,
                maxConnectionsPerClient: 3, headerTimeoutSeconds: 0.5)
            // The server's own header deadline is 120 s; the listener's is 0.5 s: closed
            // long before the first could pass.
            let silent = try RawClient(port: admin.port, receiveTimeoutSeconds: 60)
            #expect(try await silent.readsEOF())
        }
    }

    @Test func theConnectionCapKeysIPv6ClientsByPrefixAndCountsTheirSite() {
        let counts = ClientConnectionCounts(maxPerClient: 2, ipv6PrefixLength: 64)
        // Two addresses of one /64 are one client.
        #expect(counts.admit("2001:db8:1:2::1"))
        #expect(counts.admit("2001:db8:1:2::2"))
        #expect(!counts.admit("2001:db8:1:2:ffff::3"))
        // Another /64 of the same /48 is another client, until the /48 holds 16 × 2.
        var admitted = 0
        for subnet in 3..<40 where counts.admit("2001:db8:1:\(String(subnet, radix: 16))::1") {
            admitted += 1
        }
        #expect(admitted == 30)  // 32 for the /48, 2 of them taken by the first /64
        #expect(!counts.admit("2001:db8:1:ff::1"))
        // Another /48 is not affected.
        #expect(counts.admit("2001:db8:2::1"))
        // Releasing gives the share back to the client and its /48.
        counts.release("2001:db8:1:2::1")
        #expect(counts.admit("2001:db8:1:2::9"))
        #expect(counts.openConnections(of: "2001:db8:1:2::abc") == 2)
    }

    @Test func anIPv4MappedAddressCountsAsItsIPv4Address() {
        let counts = ClientConnectionCounts(maxPerClient: 2, ipv6PrefixLength: 64)
        #expect(counts.admit("10.1.2.3"))
        #expect(counts.admit("::ffff:10.1.2.3"))
        #expect(!counts.admit("10.1.2.3"))
        // IPv4 clients are whole addresses, not a prefix.
        #expect(counts.admit("10.1.2.4"))
        #expect(counts.clientKey(for: "::ffff:10.1.2.3") == counts.clientKey(for: "10.1.2.3"))
    }

    @Test func aShortIPv6PrefixHasNoSiteOfItsOwnAndASiteCapSaturates() {
        let wide = ClientConnectionCounts(maxPerClient: 1, ipv6PrefixLength: 40)
        #expect(wide.admit("2001:db8:1::1"))
        #expect(!wide.admit("2001:db8:2::1"))  // the same /40
        let huge = ClientConnectionCounts(maxPerClient: .max)
        #expect(huge.maxPerSite == .max)
        #expect(huge.admit("2001:db8::1"))
    }

    @Test func recordFramingCountsTheBytesOfAnIncompleteRecord() {
        var framing = TLSRecordFraming()
        func feed(_ bytes: [UInt8]) { bytes.withUnsafeBytes { framing.advance(over: $0) } }
        #expect(framing.partialRecordBytes == 0)
        feed([0x17, 0x03])
        #expect(framing.partialRecordBytes == 2)
        feed([0x03, 0x00, 0x04, 1, 2])  // header complete: a 4-byte fragment, 2 seen
        #expect(framing.partialRecordBytes == 7)
        feed([3, 4, 0x17, 0x03, 0x03, 0x01])  // the record ends; the next's header begins
        #expect(framing.partialRecordBytes == 4)
        feed([0x00] + [UInt8](repeating: 9, count: 256))
        #expect(framing.partialRecordBytes == 0)
    }
}

extension RawClient {
    /// Whether the server gave up on this connection: an answer with `status`, or the end
    /// of the stream.
    func readsEOFOrAnswer(_ status: Int) async throws -> Bool {
        var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard Glibc.poll(&poll, 1, 0) == 1 else { return false }
        return try await readResponseOrEOF(status)
    }

    private func readResponseOrEOF(_ status: Int) async throws -> Bool {
        do {
            return try await readResponse().statusCode == status
        } catch {
            return true  // closed without an answer (or reset)
        }
    }
}
