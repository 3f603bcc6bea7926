/// Parses one field line, `field-name ":" OWS field-value OWS` (RFC 9112 §5).
enum FieldLine {
    /// - Parameter isFirst: the line directly follows the start line, where leading
    ///   whitespace is its own error (RFC 9112 §2.2) rather than a fold.
    static func parse(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>, isFirst: Bool)
        throws(HTTPParseError) -> FieldRange
    {
        guard let first = line.first else { throw .invalidFieldName }
        if HTTPGrammar.isWhitespace(bytes[first]) {
            // RFC 9112 §2.2: whitespace between the start line and the first field can
            // hide a field from one parser and not another; reject it. Later, a line that
            // starts with whitespace is obs-fold, which a server must reject (§5.2).
            throw isFirst ? .whitespaceBeforeFirstHeader : .obsFold
        }
        var index = first
        while index < line.upperBound, bytes[index] != HTTPGrammar.colon {
            let byte = bytes[index]
            if !HTTPGrammar.isToken(byte) {
                // RFC 9112 §5.1: no whitespace between field name and colon; a server
                // must reject such a line (`Content-Length : 34` is a smuggling vector).
                if HTTPGrammar.isWhitespace(byte), onlyWhitespaceThenColon(bytes, index, line) {
                    throw .spaceBeforeColon
                }
                throw .invalidFieldName
            }
            index += 1
        }
        guard index < line.upperBound, index > first else { throw .invalidFieldName }
        let name = first..<index
        let value = HTTPGrammar.trimmingWhitespace(bytes, (index + 1)..<line.upperBound)
        // RFC 9110 §5.5: CR, LF and NUL in a value are rejected, as is any other control
        // byte the field-value grammar does not allow. Eight bytes at a time, byte by byte
        // only where a word may hold one (a tab, or a value that fails).
        var position = value.lowerBound
        while position + 8 <= value.upperBound {
            if ByteWord.hasControl(ByteWord.load(bytes, at: position)) {
                try checkValueBytes(bytes, position..<(position + 8))
            }
            position += 8
        }
        try checkValueBytes(bytes, position..<value.upperBound)
        return FieldRange(name: name, value: value)
    }

    private static func checkValueBytes(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>)
        throws(HTTPParseError)
    {
        for position in range where !HTTPGrammar.isFieldValue(bytes[position]) {
            throw .invalidFieldValue
        }
    }

    private static func onlyWhitespaceThenColon(
        _ bytes: UnsafeRawBufferPointer, _ start: Int, _ line: Range<Int>
    ) -> Bool {
        var index = start
        while index < line.upperBound, HTTPGrammar.isWhitespace(bytes[index]) { index += 1 }
        return index < line.upperBound && bytes[index] == HTTPGrammar.colon
    }
}
