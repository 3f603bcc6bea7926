/// Hex digits (RFC 4648 §8, base16), either case in, the asked case out: the one codec
/// for the key ids made here and, above this target, for percent escapes, JSON `\u`
/// escapes and legacy tokens. (HTTPCore, which depends on nothing, reads HEXDIG with its
/// own grammar table.)
public enum Hex {
    /// The value of one hex digit, either case; nil for any other byte.
    @inlinable
    public static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The digit for `nibble` (its low 4 bits): lowercase, or uppercase as RFC 3986 §2.1
    /// prefers for percent escapes.
    @inlinable
    public static func digit(_ nibble: UInt8, uppercase: Bool = false) -> UInt8 {
        let nibble = nibble & 0x0F
        if nibble < 10 { return UInt8(ascii: "0") + nibble }
        return (uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")) + nibble - 10
    }

    /// The bytes of an even number of hex digits, either case (none for empty text); nil
    /// on an odd count or any other character.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// Lowercase hex of `bytes`, two digits each. Inlinable, so a caller in another module
    /// gets a copy specialised to its sequence: unspecialised, each byte read through the
    /// generic witness cost an allocation (a family id's key on every refresh).
    @inlinable
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digit(byte >> 4))
            text.append(digit(byte))
        }
        return String(decoding: text, as: UTF8.self)
    }
}
