/// A command as RESP2 puts it on the wire: an array of bulk strings (the "multibulk"
/// request every Redis since 1.2 reads; inline commands are never sent, so no argument
/// needs escaping and any bytes may be an argument).
public enum RESPCommandEncoder {
    /// `*N\r\n` then `$len\r\n<bytes>\r\n` per argument.
    /// - Throws: `.invalidCommand` for an empty argument list.
    public static func encode(_ arguments: [[UInt8]]) throws(RESPError) -> [UInt8] {
        guard !arguments.isEmpty else {
            throw .invalidCommand(reason: "a command needs at least its name")
        }
        var wire: [UInt8] = []
        wire.reserveCapacity(arguments.reduce(16) { $0 + $1.count + 16 })
        appendHeader(UInt8(ascii: "*"), arguments.count, to: &wire)
        for argument in arguments {
            appendHeader(UInt8(ascii: "$"), argument.count, to: &wire)
            wire.append(contentsOf: argument)
            wire.append(0x0D)
            wire.append(0x0A)
        }
        return wire
    }

    private static func appendHeader(_ type: UInt8, _ count: Int, to wire: inout [UInt8]) {
        wire.append(type)
        wire.append(contentsOf: String(count).utf8)
        wire.append(0x0D)
        wire.append(0x0A)
    }
}
