import HTTPCore
import Sealing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
        if let decoded = body.withContiguousStorageIfAvailable(decoding) {
            return try decoded.get()
        }
        return try Array(body).withUnsafeBufferPointer(decoding).get()
    }

    private static func decoding(_ body: UnsafeBufferPointer<UInt8>) -> Result<
        [(name: String, value: String)], DecodingError
    > {
        do throws(DecodingError) { return .success(try decode(body)) } catch {
            return .failure(error)
        }
    }

    /// The pairs of a contiguous body, scanned in place: a component without `+` or `%`
    /// becomes its string in one step. The `&` and `=` are found by `memchr`, which reads
    /// a long value (a sealed token) many bytes at a time.
    private static func decode(_ body: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> [(
        name: String, value: String
    )] {
        var pairs: [(name: String, value: String)] = []
        var pairIndex = 0
        var pairStart = 0
        while pairStart < body.count {
            let pairEnd = offset(of: UInt8(ascii: "&"), in: body, from: pairStart, to: body.count)
            // A pair without `=` is all name.
            let nameEnd = offset(of: UInt8(ascii: "="), in: body, from: pairStart, to: pairEnd)
            if pairEnd > pairStart {
                let valueStart = min(nameEnd + 1, pairEnd)
                pairs.append(
                    (
                        try decodeComponent(
                            UnsafeBufferPointer(rebasing: body[pairStart..<nameEnd]), pairIndex),
                        try decodeComponent(
                            UnsafeBufferPointer(rebasing: body[valueStart..<pairEnd]), pairIndex)
                    ))
                pairIndex += 1
            }
            pairStart = pairEnd + 1
        }
        return pairs
    }

    /// The offset of the first `byte` in `body[start..<end]`, or `end` when there is none.
    private static func offset(
        of byte: UInt8, in body: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
    ) -> Int {
        guard start < end, let base = body.baseAddress,
            let found = memchr(base + start, Int32(byte), end - start)
        else { return end }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    private static func decodeComponent(_ raw: UnsafeBufferPointer<UInt8>, _ pairIndex: Int)
        throws(DecodingError) -> String
    {
        // Whole words holding no `+`, `%` or non-ASCII byte skipped (`ByteWord`), then the
        // rest byte by byte: whether anything is escaped, and whether every byte is ASCII
        // (then the text needs no validation).
        let plainWords = ByteWord.skipWords(
            without: .formEscapes, in: UnsafeRawBufferPointer(raw), from: 0)
        var needsDecoding = false
        var nonASCII = false
        for byte in raw[plainWords...] {
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "%") { needsDecoding = true }
            if byte >= 0x80 { nonASCII = true }
        }
        if !needsDecoding {
            if !nonASCII { return String(decoding: raw, as: UTF8.self) }
            guard let text = String(validating: raw, as: UTF8.self) else {
                throw .invalidUTF8(pairIndex: pairIndex)
            }
            return text
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var iterator = raw.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(Hex.value),
                    let low = iterator.next().flatMap(Hex.value)
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

    /// Encodes pairs: unreserved bytes (`A-Z a-z 0-9 - . _ ~`, RFC 3986 §2.3) as-is,
    /// space as `+`, everything else percent-encoded. Also the encoding RFC 6749 §2.3.1
    /// asks for on the client id and secret before they go into a Basic header.
    public static func encode(_ pairs: [(name: String, value: String)]) -> [UInt8] {
        var out: [UInt8] = []
        // Room for every byte once, plus the separators; escapes grow it past that.
        out.reserveCapacity(pairs.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 })
        for (position, pair) in pairs.enumerated() {
            if position > 0 { out.append(UInt8(ascii: "&")) }
            appendComponent(pair.name, to: &out)
            out.append(UInt8(ascii: "="))
            appendComponent(pair.value, to: &out)
        }
        return out
    }

    public static func encodeComponent(_ text: String) -> String {
        if text.utf8.allSatisfy(isUnreserved) { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3)
        appendComponent(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `A-Z a-z 0-9 - . _ ~` as bits: bytes 0-63 in the first word, 64-127 in the second.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        let below64: UInt64 = 0x03FF_6000_0000_0000
        let from64: UInt64 = 0x47FF_FFFE_87FF_FFFE
        return byte < 64
            ? below64 >> UInt64(byte) & 1 == 1
            : byte < 128 && from64 >> UInt64(byte - 64) & 1 == 1
    }

    /// Runs of unreserved bytes (all of a typical token) are copied whole; the rest is
    /// escaped byte by byte.
    private static func appendComponent(_ text: String, to out: inout [UInt8]) {
        text.withUTF8Bytes { utf8 in
            var runStart = 0
            for (offset, byte) in utf8.enumerated() where !isUnreserved(byte) {
                if runStart < offset {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<offset]))
                }
                runStart = offset + 1
                if byte == 0x20 {
                    out.append(UInt8(ascii: "+"))
                } else {
                    out.append(UInt8(ascii: "%"))
                    out.append(Hex.digit(byte >> 4, uppercase: true))
                    out.append(Hex.digit(byte, uppercase: true))
                }
            }
            if runStart < utf8.count {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
            }
        }
    }
}
