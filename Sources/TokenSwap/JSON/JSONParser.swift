/// A strict RFC 8259 parser over bytes: no comments, no trailing commas, no leading
/// zeros, no bare control characters in strings, valid UTF-8 and surrogate pairs only,
/// and a nesting limit so a hostile body cannot exhaust the stack. Duplicate member names
/// are refused (RFC 8259 §4 leaves them unpredictable; RFC 6749 §3.1 forbids repeated
/// parameters).
public struct JSONParser {
    public static let maxDepth = 32

    private let bytes: [UInt8]
    private var index = 0

    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw .trailingContent(offset: parser.index) }
        return value
    }

    private init(bytes: [UInt8]) {
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

    private mutating func expect(_ literal: String, _ value: JSONValue) throws(JSONParseError)
        -> JSONValue
    {
        for byte in literal.utf8 {
            guard try peek() == byte else { throw .unexpectedByte(offset: index) }
            index += 1
        }
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
        var names = Set<String>()
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw .unexpectedByte(offset: index) }
            let nameOffset = index
            let name = try parseString()
            guard names.insert(name).inserted else { throw .duplicateMember(offset: nameOffset) }
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
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func digits() -> Int {
            let from = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw .invalidNumber(offset: start)
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            _ = digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw .invalidNumber(offset: start) }
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
            guard digits() > 0 else { throw .invalidNumber(offset: start) }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        let start = index
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun(_ end: Int) throws(JSONParseError) {
            guard runStart < end else { return }
            // Strict UTF-8: `String(validating:)` refuses overlongs, surrogates, truncation.
            guard let text = String(validating: bytes[runStart..<end], as: UTF8.self) else {
                throw .invalidString(offset: start)
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw .unexpectedEnd }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flushRun(index)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw .invalidString(offset: start) }
            if byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            try flushRun(index)
            index += 1
            guard index < bytes.count else { throw .unexpectedEnd }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"): scalars.append(try parseUnicodeEscape(stringStart: start))
            default: throw .invalidString(offset: start)
            }
            runStart = index
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
        for byte in bytes[index..<index + 4] {
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
