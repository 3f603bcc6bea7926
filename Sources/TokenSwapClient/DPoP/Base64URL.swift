import Foundation

/// base64url without padding (RFC 7515 §2, RFC 4648 §5): the encoding of every part of a
/// JWS and of a JWK's coordinates.
enum Base64URL {
    static func encode<Bytes: DataProtocol>(_ bytes: Bytes) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        while text.last == "=" { text.removeLast() }
        return text
    }

    /// nil for anything that is not base64url (padding, `+`, `/` and whitespace included).
    static func decode(_ text: some StringProtocol) -> Data? {
        guard
            text.utf8.allSatisfy({
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
            }), text.utf8.count % 4 != 1
        else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
