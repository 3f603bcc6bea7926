/// `application/x-www-form-urlencoded` (WHATWG URL §5; RFC 6749 Appendix B), strict on
/// input: a `%` must start two hex digits and the decoded bytes must be UTF-8.
public enum FormURLEncoding {
    public enum DecodingError: Error, Sendable, Equatable {
        /// Positions only: the body may hold a code or token.
        case malformedPercentEscape(pairIndex: Int)
        case invalidUTF8(pairIndex: Int)
    }

    /// Name/value pairs in order, duplicates kept. `+` is a space; empty pairs
    /// (`a=1&&b=2`) are skipped; a pair without `=` has an empty value.
    public static func decode(_ body: some Collection<UInt8>) throws(DecodingError) -> [(
        name: String, value: String
    )] {
        var pairs: [(name: String, value: String)] = []
        for (pairIndex, pair) in body.split(
            separator: UInt8(ascii: "&"), omittingEmptySubsequences: true
        ).enumerated() {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let rawName = pair[..<(equals ?? pair.endIndex)]
            let rawValue = equals.map { pair[pair.index(after: $0)...] } ?? pair[pair.endIndex...]
            pairs.append(
                (try decodeComponent(rawName, pairIndex), try decodeComponent(rawValue, pairIndex)))
        }
        return pairs
    }

    private static func decodeComponent(_ raw: some Collection<UInt8>, _ pairIndex: Int)
        throws(DecodingError) -> String
    {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var iterator = raw.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue),
                    let low = iterator.next().flatMap(hexValue)
                else {
                    throw .malformedPercentEscape(pairIndex: pairIndex)
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalidUTF8(pairIndex: pairIndex)
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// Encodes pairs: unreserved bytes (`A-Z a-z 0-9 - . _ ~`, RFC 3986 §2.3) as-is,
    /// space as `+`, everything else percent-encoded. Also the encoding RFC 6749 §2.3.1
    /// asks for on the client id and secret before they go into a Basic header.
    public static func encode(_ pairs: [(name: String, value: String)]) -> [UInt8] {
        var out: [UInt8] = []
        for (position, pair) in pairs.enumerated() {
            if position > 0 { out.append(UInt8(ascii: "&")) }
            out.append(contentsOf: encodeComponent(pair.name).utf8)
            out.append(UInt8(ascii: "="))
            out.append(contentsOf: encodeComponent(pair.value).utf8)
        }
        return out
    }

    public static func encodeComponent(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            case 0x20:
                out.append(UInt8(ascii: "+"))
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
