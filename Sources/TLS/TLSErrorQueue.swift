import COpenSSL

/// Reads OpenSSL's per-thread error queue into text. OpenSSL's reason strings name the
/// library, function and check that failed; they never contain key or payload bytes.
package enum TLSErrorQueue {
    /// Every queued error as text after `context`, emptying the queue.
    package static func drain(_ context: String) -> String {
        var reasons: [String] = []
        for code in codes() { reasons.append(text(code)) }
        return reasons.isEmpty ? context : "\(context): \(reasons.joined(separator: "; "))"
    }

    /// Every queued error code, oldest first, emptying the queue.
    package static func codes() -> [UInt] {
        var codes: [UInt] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            codes.append(code)
        }
        return codes
    }

    package static func text(_ code: UInt) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
