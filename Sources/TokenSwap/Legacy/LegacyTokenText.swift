import Sealing

/// A legacy token as the client sent it, repaired from the known transport damage
/// (CONTRACT §9) and decoded as base64 or hex.
package enum LegacyTokenText {
    /// Undoes what clients do to these tokens on the way: Ruby's `pack('m')` newlines
    /// dropped, or sent as the two characters `\n` (a JSON string escaped once too
    /// often); `+` read as a space (form decoding of an unescaped base64 value, the
    /// WHATWG URL rules). Base64 and hex have no space, backslash or newline, so each
    /// repair is safe for every format.
    package static func repaired(_ token: String) -> String {
        let bytes = Array(token.utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\\")
            where index < bytes.count
                && (bytes[index] == UInt8(ascii: "n") || bytes[index] == UInt8(ascii: "r")):
                index += 1
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                continue
            case UInt8(ascii: " "):
                text.append(UInt8(ascii: "+"))
            default:
                text.append(byte)
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Standard or URL-safe base64, padded or not; nil if it is neither.
    package static func base64(_ text: String) -> [UInt8]? {
        var standard = String(
            text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }.filter { $0 != "=" })
        guard !standard.isEmpty, standard.count % 4 != 1 else { return nil }
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Base64.decode(standard, ignoringUnusedBits: true)
    }

    /// Hex digits, either case, an even number of them; nil otherwise.
    package static func hex(_ text: String) -> [UInt8]? {
        guard !text.isEmpty else { return nil }
        return Hex.decode(text)
    }
}
