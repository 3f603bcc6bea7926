/// base64 (RFC 4648 §4), the standard alphabet with `=` padding: what HTTP Basic
/// credentials (RFC 7617 §2) and the legacy token formats are written in.
///
/// Built on `Base64URL`: the two alphabets differ only in their last two characters
/// (`+/` here, `-_` there), so the bit work has one implementation.
public enum Base64 {
    /// Padded standard base64 of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String {
        var text = Array(Base64URL.encode(bytes).utf8)
        for index in text.indices {
            switch text[index] {
            case UInt8(ascii: "-"): text[index] = UInt8(ascii: "+")
            case UInt8(ascii: "_"): text[index] = UInt8(ascii: "/")
            default: break
            }
        }
        text += repeatElement(UInt8(ascii: "="), count: (4 - text.count % 4) % 4)
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of padded standard base64: a multiple of 4 characters, at most two `=`
    /// and only at the end; nil otherwise.
    /// - Parameter ignoringUnusedBits: accept nonzero unused bits in the last character
    ///   before the padding (RFC 4648 §3.5 lets a decoder do so) as Foundation's decoder
    ///   does, for texts other software wrote; otherwise every byte string has exactly
    ///   one accepted text.
    public static func decode(_ text: some StringProtocol, ignoringUnusedBits: Bool = false)
        -> [UInt8]?
    {
        var characters = Array(text.utf8)
        guard characters.count % 4 == 0 else { return nil }
        var padding = 0
        while padding < 2, characters.last == UInt8(ascii: "=") {
            characters.removeLast()
            padding += 1
        }
        for index in characters.indices {
            switch characters[index] {
            case UInt8(ascii: "+"): characters[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): characters[index] = UInt8(ascii: "_")
            // The URL-safe characters are not standard base64.
            case UInt8(ascii: "-"), UInt8(ascii: "_"): return nil
            default: break
            }
        }
        if ignoringUnusedBits, padding > 0, let last = characters.indices.last {
            let value = Base64URL.values[Int(characters[last])]
            guard value != 0xFF else { return nil }
            // Two `=`: the last character carries 2 bits; one `=`: 4 bits.
            let used: UInt8 = padding == 2 ? 0x30 : 0x3C
            characters[last] = Base64URL.alphabet[Int(value & used)]
        }
        return Base64URL.decode(Substring(String(decoding: characters, as: UTF8.self)))
    }
}
