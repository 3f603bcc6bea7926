import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One HTTP/1.1 exchange over a fresh loopback TCP connection, closed after the answer:
/// raw bytes out (so tests can send what no polite client would), the parsed answer back.
struct Exchange {
    struct Answer: Sendable, CustomStringConvertible {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: String

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The body as a JSON object, or nil.
        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        }

        func string(_ member: String) -> String? { json?[member] as? String }

        var error: String? { string("error") }

        var description: String { "\(status) \(body)" }
    }

    /// Sends `raw` to 127.0.0.1:`port` and reads until the server closes.
    static func send(_ raw: [UInt8], port: UInt16, timeoutSeconds: Int = 20) async throws -> Answer
    {
        try await offPool { try blockingSend(raw, port: port, timeoutSeconds: timeoutSeconds) }
    }

    static func request(
        _ method: String, _ target: String, port: UInt16, headers: [(String, String)] = [],
        body: String? = nil
    ) async throws -> Answer {
        var head =
            "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.utf8.count)\r\n" }
        head += "\r\n"
        return try await send(Array((head + (body ?? "")).utf8), port: port)
    }

    /// A form POST, the way the SDKs send it.
    static func form(_ path: String, port: UInt16, _ fields: [(String, String)]) async throws
        -> Answer
    {
        let body = fields.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
        return try await request(
            "POST", path, port: port,
            headers: [("Content-Type", "application/x-www-form-urlencoded")], body: body)
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    static func blockingSend(_ raw: [UInt8], port: UInt16, timeoutSeconds: Int) throws -> Answer {
        let fd = try Loopback.connect(port: port, receiveTimeoutSeconds: Double(timeoutSeconds))
        defer { close(fd) }
        var sent = 0
        while sent < raw.count {
            let n = raw[sent...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            // A server may answer (413, 431) and close before taking the whole request.
            if n <= 0 { break }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                received.append(contentsOf: buffer[0..<n])
            } else if n == 0 || errno != EINTR {
                break
            }
        }
        return try parse(received)
    }

    static func parse(_ bytes: [UInt8]) throws -> Answer {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else {
            throw EndToEndFailure("no complete response head (\(bytes.count) bytes)")
        }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw EndToEndFailure("bad status line")
        }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                String(line[..<colon]),
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            )
        }
        var body = String(text[split.upperBound...])
        if let length = headers.first(where: { $0.name.lowercased() == "content-length" })
            .flatMap({ Int($0.value) }), body.utf8.count > length
        {
            body = String(decoding: Array(body.utf8.prefix(length)), as: UTF8.self)
        }
        return Answer(status: status, headers: headers, body: body)
    }
}
