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

    /// Runs without escapes are copied whole; escapes are written one byte at a time.
    private static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for (offset, byte) in utf8.enumerated() where needsEscape(byte) {
                if runStart < offset {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<offset]))
                }
                runStart = offset + 1
                writeEscape(byte, to: &out)
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
