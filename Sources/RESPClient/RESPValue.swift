/// One RESP2 reply (the Redis serialization protocol, version 2; Valkey speaks the same):
/// the five types a server running in RESP2 mode sends. RESP3 types are refused by the
/// parser: the client never sends `HELLO 3`, so a server that sends them is broken.
public indirect enum RESPValue: Sendable, Equatable {
    /// `+OK\r\n`: a short status line (no CR or LF inside).
    case simpleString(String)
    /// `-ERR …\r\n` inside an array (a top-level error reply is `RESPError.server`).
    case error(String)
    /// `:42\r\n`: a signed 64-bit integer.
    case integer(Int64)
    /// `$3\r\nabc\r\n`; `$-1\r\n` is the null bulk string (nil).
    case bulkString([UInt8]?)
    /// `*2\r\n…`; `*-1\r\n` is the null array (nil).
    case array([RESPValue]?)
}
