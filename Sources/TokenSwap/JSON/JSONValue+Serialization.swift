extension JSONValue {
    /// Compact RFC 8259 text: members in order, strings escaped (`"`, `\`, controls;
    /// everything else as UTF-8), numbers as their original text.
    public var serialized: [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
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

    private static func writeString(_ text: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20, 0x7F:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
