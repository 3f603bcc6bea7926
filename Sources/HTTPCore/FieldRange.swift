/// One field line of a parsed head as byte ranges, relative to the head's first byte.
/// The value has its surrounding whitespace (OWS) already trimmed (RFC 9112 §5.1).
public struct FieldRange: Sendable, Hashable {
    public var name: Range<Int>
    public var value: Range<Int>

    public init(name: Range<Int>, value: Range<Int>) {
        self.name = name
        self.value = value
    }
}
