extension FieldSemantics {
    /// RFC 9110 §8.6 / RFC 9112 §6.3: Content-Length is 1*DIGIT, once, in requests and
    /// responses alike (a list or a repeat is refused even when the values agree).
    func checkContentLength() throws(HTTPParseError) {
        if contentLengthCount > 1 || contentLengthIsList { throw .duplicateContentLength }
        if contentLengthInvalid { throw .invalidContentLength }
    }

    /// The framing a Transfer-Encoding field gives (RFC 9112 §6.1, §6.3 rule 4): chunked
    /// only, and last; we decode no other coding, so any other makes the body unusable.
    /// Call only when the head has Transfer-Encoding.
    func transferCodingFraming() throws(HTTPParseError) -> BodyFraming {
        switch transferEncoding {
        case .chunked: .chunked
        case .invalid: throw .invalidTransferEncoding
        case .chunkedNotLast: throw .chunkedNotLast
        case .unknownCoding: throw .unknownTransferCoding
        }
    }
}
