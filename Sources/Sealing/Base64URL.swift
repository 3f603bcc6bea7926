/// base64url (RFC 4648 §5) without padding, strict in both directions.
///
/// Our own codec rather than Foundation's: Foundation's decoder accepts padding and, with
/// options, whitespace, and it does not reject non-canonical trailing bits, so two texts
/// could open to the same token. Here every byte string has exactly one text form:
/// anything outside `[A-Za-z0-9_-]` (including `+`, `/`, `=`, whitespace), a length of
/// 1 mod 4, or nonzero unused bits in the last character is refused.
public enum Base64URL {
    static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// 0xFF marks bytes outside the alphabet.
    static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }()

    /// `values` shifted to each character's place in a four-character group (18, 12, 6
    /// and 0 bits), so a group is the OR of four lookups; a byte outside the alphabet
    /// sets `invalidGroupBit`, which no valid group reaches (they fit in 24 bits).
    static let groupValues: [UInt32] = {
        var table = [UInt32](repeating: invalidGroupBit, count: 4 * 256)
        for (value, character) in alphabet.enumerated() {
            for place in 0..<4 {
                table[place * 256 + Int(character)] = UInt32(value) << (18 - 6 * place)
            }
        }
        return table
    }()
    static let invalidGroupBit: UInt32 = 1 << 31

    package static func encodedLength(byteCount: Int) -> Int {
        (byteCount / 3) * 4 + [0, 2, 3][byteCount % 3]
    }

    /// The byte count `characterCount` characters decode to, or nil for an impossible
    /// length (1 mod 4 leaves 6 bits, less than a byte).
    package static func decodedLength(characterCount: Int) -> Int? {
        switch characterCount % 4 {
        case 0: characterCount / 4 * 3
        case 2: characterCount / 4 * 3 + 1
        case 3: characterCount / 4 * 3 + 2
        default: nil
        }
    }

    static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        let length = encodedLength(byteCount: bytes.count)
        return String(unsafeUninitializedCapacity: length) { text in
            alphabet.withUnsafeBufferPointer { alphabet in
                var out = 0
                var index = 0
                while index + 3 <= bytes.count {
                    let group =
                        UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
                        | UInt32(bytes[index + 2])
                    text[out] = alphabet[Int(group >> 18)]
                    text[out + 1] = alphabet[Int(group >> 12 & 0x3F)]
                    text[out + 2] = alphabet[Int(group >> 6 & 0x3F)]
                    text[out + 3] = alphabet[Int(group & 0x3F)]
                    index += 3
                    out += 4
                }
                switch bytes.count - index {
                case 1:
                    let group = UInt32(bytes[index]) << 16
                    text[out] = alphabet[Int(group >> 18)]
                    text[out + 1] = alphabet[Int(group >> 12 & 0x3F)]
                    out += 2
                case 2:
                    let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
                    text[out] = alphabet[Int(group >> 18)]
                    text[out + 1] = alphabet[Int(group >> 12 & 0x3F)]
                    text[out + 2] = alphabet[Int(group >> 6 & 0x3F)]
                    out += 3
                default:
                    break
                }
                return out
            }
        }
    }

    public static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { encode($0) }
    }

    /// Decodes `text` into `output`, which must hold at least
    /// `decodedLength(characterCount: text.count)` bytes; returns the number of bytes
    /// written, or nil if `text` is not canonical unpadded base64url.
    package static func decode(
        _ text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableRawBufferPointer
    )
        -> Int?
    {
        guard let length = decodedLength(characterCount: text.count), output.count >= length
        else { return nil }
        var out = 0
        var index = 0
        let groupCount = text.count / 4
        if groupCount > 0 {
            guard let input = text.baseAddress, let output = output.baseAddress else { return nil }
            // Four characters per step: one lookup each in their place's table.
            let valid = groupValues.withUnsafeBufferPointer { table -> Bool in
                guard let table = table.baseAddress else { return false }
                var invalid: UInt32 = 0
                for _ in 0..<groupCount {
                    let group =
                        table[Int(input[index])] | table[256 + Int(input[index + 1])]
                        | table[512 + Int(input[index + 2])] | table[768 + Int(input[index + 3])]
                    invalid |= group
                    output.storeBytes(
                        of: UInt8(truncatingIfNeeded: group >> 16), toByteOffset: out,
                        as: UInt8.self)
                    output.storeBytes(
                        of: UInt8(truncatingIfNeeded: group >> 8), toByteOffset: out + 1,
                        as: UInt8.self)
                    output.storeBytes(
                        of: UInt8(truncatingIfNeeded: group), toByteOffset: out + 2, as: UInt8.self)
                    index += 4
                    out += 3
                }
                return invalid & invalidGroupBit == 0
            }
            guard valid else { return nil }
        }
        return values.withUnsafeBufferPointer { values -> Int? in
            switch text.count - index {
            case 2:
                let a = values[Int(text[index])]
                let b = values[Int(text[index + 1])]
                // The last character carries 2 bits of data; its low 4 bits must be zero.
                guard (a | b) & 0xC0 == 0, b & 0x0F == 0 else { return nil }
                output[out] = a << 2 | b >> 4
                out += 1
            case 3:
                let a = values[Int(text[index])]
                let b = values[Int(text[index + 1])]
                let c = values[Int(text[index + 2])]
                // The last character carries 4 bits of data; its low 2 bits must be zero.
                guard (a | b | c) & 0xC0 == 0, c & 0x03 == 0 else { return nil }
                output[out] = a << 2 | b >> 4
                output[out + 1] = (b & 0x0F) << 4 | c >> 2
                out += 2
            default:
                break
            }
            return out
        }
    }

    /// Decodes canonical unpadded base64url text, or returns nil.
    package static func decode(_ text: Substring) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decoded($0) }
    }

    /// Decodes canonical unpadded base64url text given as its ASCII bytes, or returns nil.
    package static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        text.withUnsafeBufferPointer { decoded($0) }
    }

    private static func decoded(_ utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let length = decodedLength(characterCount: utf8.count) else { return nil }
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            guard let written = decode(utf8, into: UnsafeMutableRawBufferPointer(buffer)) else {
                failed = true
                count = 0
                return
            }
            count = written
        }
        return failed ? nil : bytes
    }
}
