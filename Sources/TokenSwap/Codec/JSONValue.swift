import HTTPCore
import Sealing

/// A JSON value (RFC 8259) as the grant endpoints need it: objects keep their members in
/// order, and numbers keep the exact text the provider sent, so fields passed through
/// are re-serialised unchanged (no float rounding of large integers).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number's text as it appeared, already checked against the RFC 8259 grammar.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([Member])

    public struct Member: Sendable, Hashable {
        public var name: String
        public var value: JSONValue

        public init(_ name: String, _ value: JSONValue) {
            self.name = name
            self.value = value
        }
    }

    /// The first member of that name, if this is an object.
    public subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

extension JSONValue {
    /// Compact RFC 8259 text: members in order, strings escaped (`"`, `\`, controls;
    /// everything else as UTF-8), numbers as their original text. Written into one
    /// buffer reserved at its final size (escapes aside).
    public var serialized: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(estimatedByteCount)
        write(to: &out)
        return out
    }

    /// The serialized size when no string needs an escape.
    var estimatedByteCount: Int {
        switch self {
        case .null: 4
        case .bool(let value): value ? 4 : 5
        case .number(let text): text.utf8.count
        case .string(let text): text.utf8.count + 2
        case .array(let elements):
            elements.reduce(2 + max(0, elements.count - 1)) { $0 + $1.estimatedByteCount }
        case .object(let members):
            members.reduce(2 + max(0, members.count - 1)) {
                $0 + $1.name.utf8.count + 3 + $1.value.estimatedByteCount
            }
        }
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let text): Self.writeString(text, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(member.name, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
    }

    /// Runs without escapes are copied whole, skipped eight bytes at a time where a word
    /// holds no byte to escape (`ByteWord`); escapes are written one byte at a time.
    private static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            var runStart = 0
            var offset = 0
            while offset < utf8.count {
                offset = ByteWord.skipWords(
                    without: .jsonEscapes, in: bytes, from: offset)
                // The word that may hold one, or the last few bytes, one at a time.
                let end = min(offset + 8, utf8.count)
                while offset < end {
                    let byte = utf8[offset]
                    if needsEscape(byte) {
                        if runStart < offset {
                            out.append(
                                contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<offset]))
                        }
                        writeEscape(byte, to: &out)
                        runStart = offset + 1
                    }
                    offset += 1
                }
            }
            if runStart < utf8.count {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func writeEscape(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
        case 0x0A: out.append(contentsOf: #"\n"#.utf8)
        case 0x0D: out.append(contentsOf: #"\r"#.utf8)
        case 0x09: out.append(contentsOf: #"\t"#.utf8)
        default:
            out.append(contentsOf: #"\u00"#.utf8)
            out.append(Hex.digit(byte >> 4))
            out.append(Hex.digit(byte))
        }
    }
}

/// A strict RFC 8259 parser over bytes: no comments, no trailing commas, no leading
/// zeros, no bare control characters in strings, valid UTF-8 and surrogate pairs only,
/// and a nesting limit so a hostile body cannot exhaust the stack. Duplicate member names
/// are refused (RFC 8259 §4 leaves them unpredictable; RFC 6749 §3.1 forbids repeated
/// parameters).
///
/// It runs on every upstream answer, so it scans the caller's bytes in place and makes
/// each string in one step from its byte range (validated once; ASCII needs no check),
/// with a scratch buffer only for strings that contain escapes.
package struct JSONParser {
    package static let maxDepth = 32
    /// Up to this many members, duplicates are found by comparing with the earlier
    /// names; beyond it a set of names keeps a hostile object from costing O(n²).
    static let linearDuplicateCheckLimit = 16

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    package static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer)
            do throws(JSONParseError) {
                parser.skipWhitespace()
                let value = try parser.parseValue(depth: 0)
                parser.skipWhitespace()
                guard parser.index == buffer.count else {
                    throw .trailingContent(offset: parser.index)
                }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func peek() throws(JSONParseError) -> UInt8 {
        guard index < bytes.count else { throw .unexpectedEnd }
        return bytes[index]
    }

    private mutating func expect(_ literal: StaticString, _ value: JSONValue)
        throws(JSONParseError) -> JSONValue
    {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else {
            // Report the first byte that differs, or the end if the prefix matches.
            for offset in 0..<(bytes.count - index)
            where bytes[index + offset] != literal.utf8Start[offset] {
                throw .unexpectedByte(offset: index + offset)
            }
            throw .unexpectedEnd
        }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            throw .unexpectedByte(offset: index + offset)
        }
        index += count
        return value
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < Self.maxDepth else { throw .tooDeep }
        switch try peek() {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw .unexpectedByte(offset: index)
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var members: [JSONValue.Member] = []
        var names: Set<String>?
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        members.reserveCapacity(8)
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw .unexpectedByte(offset: index) }
            let nameOffset = index
            let name = try parseString()
            if members.count < Self.linearDuplicateCheckLimit {
                for member in members where member.name == name {
                    throw .duplicateMember(offset: nameOffset)
                }
            } else {
                if names == nil { names = Set(members.map(\.name)) }
                guard names?.insert(name).inserted == true else {
                    throw .duplicateMember(offset: nameOffset)
                }
            }
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw .unexpectedByte(offset: index) }
            index += 1
            skipWhitespace()
            members.append(JSONValue.Member(name, try parseValue(depth: depth + 1)))
            skipWhitespace()
            let next = try peek()
            index += 1
            if next == UInt8(ascii: "}") { return .object(members) }
            guard next == UInt8(ascii: ",") else { throw .unexpectedByte(offset: index - 1) }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            let next = try peek()
            index += 1
            if next == UInt8(ascii: "]") { return .array(elements) }
            guard next == UInt8(ascii: ",") else { throw .unexpectedByte(offset: index - 1) }
        }
    }

    /// number = [ minus ] int [ frac ] [ exp ] (RFC 8259 §6).
    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        guard let end = Self.numberEnd(in: bytes, from: start) else {
            throw .invalidNumber(offset: start)
        }
        index = end
        // The grammar admits ASCII only: no validation needed.
        return .number(String(decoding: slice(start..<end), as: UTF8.self))
    }

    /// Where the number that starts at `start` (a byte is there) ends, by RFC 8259 §6's
    /// number = [ minus ] int [ frac ] [ exp ]; nil when the bytes there are not one. The
    /// one grammar for this parser and the flat DPoP claims reader (`DPoPClaims`).
    static func numberEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func digits() -> Int {
            let from = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            _ = digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
        }
        if index < bytes.count,
            bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")
        {
            index += 1
            if index < bytes.count,
                bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
            {
                index += 1
            }
            guard digits() > 0 else { return nil }
        }
        return index
    }

    private func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[range])
    }

    /// A string from raw bytes: ASCII as is, anything else only if it is valid UTF-8
    /// (`String(validating:)` refuses overlongs, surrogates, truncation).
    private func string(_ utf8: UnsafeBufferPointer<UInt8>, isASCII: Bool, stringStart: Int)
        throws(JSONParseError) -> String
    {
        if isASCII { return String(decoding: utf8, as: UTF8.self) }
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw .invalidString(offset: stringStart)
        }
        return text
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        let start = index
        index += 1
        let contentStart = index
        var highBits: UInt8 = 0
        // Fast path: no escape, the string is its bytes. Whole words of plain ASCII content
        // are skipped (`ByteWord`); the word that may hold anything else, or the last few
        // bytes, is read one byte at a time before the next skip.
        plain: while true {
            index = ByteWord.skipWords(
                without: .jsonPlainEnds, in: UnsafeRawBufferPointer(bytes), from: index)
            let wordEnd = min(index + 8, bytes.count)
            guard index < wordEnd else { throw .unexpectedEnd }
            while index < wordEnd {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = try string(
                        slice(contentStart..<index), isASCII: highBits & 0x80 == 0,
                        stringStart: start)
                    index += 1
                    return text
                }
                if byte < 0x20 { throw .invalidString(offset: start) }
                if byte == UInt8(ascii: "\\") { break plain }
                highBits |= byte
                index += 1
            }
        }
        // Escapes: the unescaped bytes gather in a scratch buffer, validated once at the
        // end. Escapes decode to whole scalars, never to a continuation byte, so a broken
        // sequence in the raw bytes stays broken next to them.
        var utf8: [UInt8] = []
        utf8.reserveCapacity(index - contentStart + 16)
        utf8.append(contentsOf: slice(contentStart..<index))
        while true {
            guard index < bytes.count else { throw .unexpectedEnd }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return try utf8.withUnsafeBufferPointer { buffer throws(JSONParseError) in
                    try string(buffer, isASCII: highBits & 0x80 == 0, stringStart: start)
                }
            }
            if byte < 0x20 { throw .invalidString(offset: start) }
            index += 1
            if byte != UInt8(ascii: "\\") {
                highBits |= byte
                utf8.append(byte)
                continue
            }
            guard index < bytes.count else { throw .unexpectedEnd }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                let scalar = try parseUnicodeEscape(stringStart: start)
                guard let encoded = UTF8.encode(scalar) else { throw .invalidString(offset: start) }
                if scalar.value >= 0x80 { highBits |= 0x80 }
                utf8.append(contentsOf: encoded)
            default: throw .invalidString(offset: start)
            }
        }
    }

    /// `\uXXXX`, with a high surrogate requiring its low partner (RFC 8259 §7).
    private mutating func parseUnicodeEscape(stringStart: Int) throws(JSONParseError)
        -> Unicode.Scalar
    {
        let first = try parseHex4(stringStart: stringStart)
        if (0xD800...0xDBFF).contains(first) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            else { throw .invalidString(offset: stringStart) }
            index += 2
            let second = try parseHex4(stringStart: stringStart)
            guard (0xDC00...0xDFFF).contains(second),
                let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            else { throw .invalidString(offset: stringStart) }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else { throw .invalidString(offset: stringStart) }
        return scalar
    }

    private mutating func parseHex4(stringStart: Int) throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw .unexpectedEnd }
        var value: UInt32 = 0
        for byte in slice(index..<index + 4) {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw .invalidString(offset: stringStart)
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }
}

/// Why bytes are not a JSON text this service accepts. Carries positions, never content:
/// the bytes may be tokens.
package enum JSONParseError: Error, Sendable, Equatable {
    case unexpectedEnd
    case unexpectedByte(offset: Int)
    case invalidNumber(offset: Int)
    case invalidString(offset: Int)
    case duplicateMember(offset: Int)
    case tooDeep
    case trailingContent(offset: Int)
}
