/// The bounds the reply parser enforces, with their defaults in one place. The store's
/// replies are small (digests, sealed answers, counters); anything past these is a
/// broken or hostile server, and the connection is closed rather than grown.
public struct RESPLimits: Sendable, Equatable {
    /// One bulk string's payload (a sealed kept answer is a few KiB).
    public var maxBulkBytes: Int = 512 * 1024
    /// A simple string or error line, without its CRLF.
    public var maxLineBytes: Int = 16 * 1024
    /// Elements one array may declare.
    public var maxArrayCount: Int = 1024
    /// Arrays nested inside arrays: the top-level array is depth 1.
    public var maxDepth: Int = 8
    /// Bytes of one whole reply, framing included: declared counts cannot add up past it.
    public var maxReplyBytes: Int = 4 * 1024 * 1024

    public init() {}
}
