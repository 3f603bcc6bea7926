import Foundation
import TLS
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking TLS client over a raw loopback socket and a client `TLSEngine`, for tests
/// that must do what no TLS library lets a client do on purpose: stall mid-record, or
/// request key updates without ever reading the answers.
///
/// `@unchecked Sendable` is sound: one test owns each client and uses it from one task
/// at a time.
final class TLSTestClient: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let fd: Int32
    let engine: TLSEngine

    private init(fd: Int32, engine: TLSEngine) {
        self.fd = fd
        self.engine = engine
    }

    deinit {
        Glibc.close(fd)
    }

    /// Connects and completes the handshake; `receiveBufferBytes` shrinks the socket's
    /// receive buffer (and so the window the server may fill) before connecting.
    static func connect(port: UInt16, context: TLSClientContext, receiveBufferBytes: Int? = nil)
        async throws -> TLSTestClient
    {
        try await offPool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
            if var bytes = receiveBufferBytes.map(Int32.init) {
                setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, socklen_t(MemoryLayout<Int32>.size))
            }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                Glibc.close(fd)
                throw Failure(description: "connect: errno \(errno)")
            }
            let client = TLSTestClient(
                fd: fd, engine: try TLSEngine(context: context, serverName: "localhost"))
            try client.handshake()
            return client
        }
    }

    private func handshake() throws {
        while true {
            let progress = try engine.handshake()
            try flush()
            if case .complete = progress { return }
            guard try receiveOnce() else { throw Failure(description: "EOF in handshake") }
        }
    }

    /// Sends what the engine queued.
    private func flush() throws {
        var bytes: [UInt8] = []
        engine.takeCiphertext(into: &bytes)
        try sendRaw(bytes)
    }

    func sendRaw(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw Failure(description: "send: errno \(errno)") }
            offset += sent
        }
    }

    /// One blocking `recv` into the engine; false at EOF.
    private func receiveOnce(flags: Int32 = 0) throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, flags) }
        if count == 0 { return false }
        guard count > 0 else { throw Failure(description: "recv: errno \(errno)") }
        buffer.withUnsafeBytes {
            engine.receiveCiphertext(UnsafeRawBufferPointer(rebasing: $0[0..<count]))
        }
        return true
    }

    /// The start of an application-data record that announces `announced` bytes, and
    /// `sent` bytes of it: the server can decrypt nothing until the rest arrives.
    func sendRawPartialRecord(announced: Int, sent: Int) throws {
        let header: [UInt8] = [0x17, 0x03, 0x03, UInt8(announced >> 8), UInt8(announced & 0xFF)]
        try sendRaw(header + [UInt8](repeating: 0x5A, count: sent))
    }

    /// Whether the server answered (application data), sent close_notify or closed the
    /// socket; session tickets alone do not count.
    func serverGaveUp() -> Bool {
        while true {
            do {
                guard try receiveOnce(flags: Int32(MSG_DONTWAIT)) else { return true }
            } catch {
                // EAGAIN: nothing more arrived; a reset: the server gave up.
                if errno != EAGAIN && errno != EWOULDBLOCK { return true }
                break
            }
        }
        var plaintext: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        let end = scratch.withUnsafeMutableBytes {
            try? engine.drainPlaintext(into: &plaintext, scratch: $0)
        }
        switch end {
        case .needsMoreInput: return !plaintext.isEmpty
        case .closed, nil: return true
        }
    }

    /// Sends KeyUpdate requests (RFC 8446 §4.6.3), never reading, until a send fails (the
    /// server closed the connection) or `limit` were sent; returns how many were sent.
    func floodKeyUpdates(upTo limit: Int) -> Int {
        for sent in 0..<limit {
            guard engine.requestKeyUpdate() else { return sent }
            do { try flush() } catch { return sent }
        }
        return limit
    }
}
