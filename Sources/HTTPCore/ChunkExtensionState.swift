/// Where a chunk-size line is within its extensions (RFC 9112 §7.1.1):
///
///     chunk-ext     = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )
///     chunk-ext-val = token / quoted-string
///
/// Checked byte by byte so a decoder never needs to keep the line.
enum ChunkExtensionState: Sendable, Hashable {
    case beforeName
    case name
    case afterName
    case beforeValue
    case tokenValue
    case quotedValue
    case quotedEscape
    case afterValue

    /// Whether the line may end (CRLF) here.
    var mayEnd: Bool {
        switch self {
        case .name, .afterName, .tokenValue, .afterValue: true
        default: false
        }
    }

    func next(_ byte: UInt8) throws(HTTPParseError) -> ChunkExtensionState {
        let isWhitespace = HTTPGrammar.isWhitespace(byte)
        let isToken = HTTPGrammar.isToken(byte)
        switch self {
        case .beforeName:
            if isWhitespace { return .beforeName }
            if isToken { return .name }
        case .name:
            if isToken { return .name }
            if isWhitespace { return .afterName }
            if byte == UInt8(ascii: "=") { return .beforeValue }
            if byte == HTTPGrammar.semicolon { return .beforeName }
        case .afterName:
            if isWhitespace { return .afterName }
            if byte == UInt8(ascii: "=") { return .beforeValue }
            if byte == HTTPGrammar.semicolon { return .beforeName }
        case .beforeValue:
            if isWhitespace { return .beforeValue }
            if isToken { return .tokenValue }
            if byte == UInt8(ascii: "\"") { return .quotedValue }
        case .tokenValue:
            if isToken { return .tokenValue }
            if isWhitespace { return .afterValue }
            if byte == HTTPGrammar.semicolon { return .beforeName }
        case .quotedValue:
            // qdtext / quoted-pair (RFC 9110 §5.6.4)
            if byte == UInt8(ascii: "\"") { return .afterValue }
            if byte == UInt8(ascii: "\\") { return .quotedEscape }
            if HTTPGrammar.isFieldValue(byte) { return .quotedValue }
        case .quotedEscape:
            if HTTPGrammar.isFieldValue(byte) { return .quotedValue }
        case .afterValue:
            if isWhitespace { return .afterValue }
            if byte == HTTPGrammar.semicolon { return .beforeName }
        }
        throw .invalidChunkExtension
    }
}
