/// Why bytes are not a JSON text this service accepts. Carries positions, never content:
/// the bytes may be tokens.
public enum JSONParseError: Error, Sendable, Equatable {
    case unexpectedEnd
    case unexpectedByte(offset: Int)
    case invalidNumber(offset: Int)
    case invalidString(offset: Int)
    case duplicateMember(offset: Int)
    case tooDeep
    case trailingContent(offset: Int)
}
