/// The elements of a comma-separated list field value, `#element` (RFC 9110 §5.6.1),
/// each trimmed of OWS. Empty elements are reported too; callers decide about them.
enum ListElements {
    static func forEach(
        _ bytes: UnsafeRawBufferPointer, _ value: Range<Int>, _ body: (Range<Int>) -> Void
    ) {
        var start = value.lowerBound
        var index = value.lowerBound
        while index <= value.upperBound {
            if index == value.upperBound || bytes[index] == HTTPGrammar.comma {
                body(HTTPGrammar.trimmingWhitespace(bytes, start..<index))
                start = index + 1
            }
            index += 1
        }
    }
}
