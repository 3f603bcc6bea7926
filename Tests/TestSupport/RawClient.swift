import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A deliberately plain blocking POSIX TCP client, so server tests (and the end-to-end
/// tests of `serve`) see exactly the bytes
/// on the wire (no HTTP library in between that would hide framing mistakes).
///
/// Its blocking calls run on a thread of their own, never on the cooperative pool:
/// the server's handlers run in Tasks there, and a test blocked in `recv` on one of its
/// few threads would starve the very server it waits for.
///
/// `@unchecked Sendable` is sound: one test owns each client and awaits every call; the
/// only overlap a test makes is one `trickle` beside reads, and sending touches nothing
/// but the immutable `fd` while reading owns `pending`, so no state is shared unguarded.
public final class RawClient: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// A response as read off the wire.
    public struct Response: Sendable {
        public var statusCode: Int
        public var headers: [(String, String)]
        public var body: [UInt8]

        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }

        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    public let fd: Int32
    private var pending: [UInt8] = []

    /// `receiveTimeoutSeconds`: how long a read waits for the server's next bytes before
    /// it fails; by default far longer than any stall of a loaded machine (a test that
    /// expects silence says how long it listens).
    public init(port: UInt16, receiveTimeoutSeconds: Double = 30) throws {
        // No delay: each send leaves as its own segment, so "split at every byte" really
        // splits.
        do {
            fd = try Loopback.connect(
                port: port, receiveTimeoutSeconds: receiveTimeoutSeconds, noDelay: true)
        } catch {
            // Every failure of this client is a `Failure`, connecting included.
            throw Failure(description: error.description)
        }
    }

    deinit {
        Glibc.close(fd)
    }

    public func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    public func send(_ bytes: [UInt8]) async throws {
        try await offPool { try self.sendNow(bytes) }
    }

    private func sendNow(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "send: \(errno)")
            }
            offset += count
        }
    }

    /// Sends one byte at a time with a pause between, like a slow or hostile client.
    public func trickle(_ text: String, pauseSeconds: Double) async throws {
        try await offPool {
            for byte in text.utf8 {
                try self.sendNow([byte])
                Thread.sleep(forTimeInterval: pauseSeconds)  // time is the test: a slow client
            }
        }
    }

    public func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Reads more bytes into `pending`; false on EOF, throws on timeout or error.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                pending.append(contentsOf: chunk[0..<count])
                return true
            }
            if count == 0 { return false }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                throw Failure(description: "timed out waiting for the server")
            }
            if errno == ECONNRESET { return false }
            throw Failure(description: "recv: \(errno)")
        }
    }

    /// Reads one response framed by Content-Length (the server always sends it; a 1xx has
    /// no body). `headRequest`: the response to a HEAD has no body whatever the length.
    public func readResponse(headRequest: Bool = false) async throws -> Response {
        try await offPool { try self.readResponseNow(headRequest: headRequest) }
    }

    private func readResponseNow(headRequest: Bool) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            headEnd = pending.firstRange(of: separator)?.upperBound
            if headEnd == nil, try !fill() {
                throw Failure(description: "EOF before a response head")
            }
        }
        guard let headEnd else { throw Failure(description: "unreachable") }
        let headText = String(decoding: pending[0..<headEnd], as: UTF8.self)
        pending.removeFirst(headEnd)
        var lines = headText.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard !lines.isEmpty else { throw Failure(description: "empty head") }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]) else {
            throw Failure(description: "bad status line: \(statusLine)")
        }
        let headers = lines.map { line -> (String, String) in
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            let value = line[colon...].dropFirst().trimmingCharacters(in: .whitespaces)
            return (String(line[..<colon]), value)
        }
        var response = Response(statusCode: code, headers: headers, body: [])
        let length =
            code < 200 || headRequest ? 0 : Int(response.header("Content-Length") ?? "0") ?? 0
        while pending.count < length {
            if try !fill() { throw Failure(description: "EOF inside a response body") }
        }
        response.body = Array(pending[0..<length])
        pending.removeFirst(length)
        return response
    }

    /// True when the server closes the connection (EOF or reset) before the timeout, with
    /// no further bytes; throws on timeout.
    public func readsEOF() async throws -> Bool {
        try await offPool { try self.readsEOFNow() }
    }

    private func readsEOFNow() throws -> Bool {
        while true {
            if try !fill() { return pending.isEmpty }
        }
    }

    /// Everything until the server closes.
    public func readUntilClose() async throws -> [UInt8] {
        try await offPool {
            while try self.fill() {}
            defer { self.pending = [] }
            return self.pending
        }
    }
}

extension RawClient {
    /// Retries `readResponse` across receive timeouts for up to `seconds`.
    public func readResponseEventually(seconds: Double = 30) async throws -> Response {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            do {
                return try await readResponse()
            } catch let failure as Failure where Date() < deadline {
                _ = failure
            }
        }
    }
}
