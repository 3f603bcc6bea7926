/// What the fields of a head say about framing and the connection, gathered in one pass
/// (RFC 9112 §3.2, §6, §9.3; RFC 9110 §10.1.1). Gathering and judging are separate so
/// each parser reports errors in one fixed order whatever the field order.
struct FieldSemantics {
    var hostCount = 0
    var hostValue: Range<Int>?

    var contentLengthCount = 0
    /// Set when any Content-Length value is a list (`5, 5`): RFC 9112 §6.3 lets a
    /// recipient reject it, and a strict one must, since another hop may pick differently.
    var contentLengthIsList = false
    var contentLengthInvalid = false
    var contentLength: Int?

    var hasTransferEncoding = false
    var transferEncoding = TransferEncoding.chunked

    var connectionClose = false
    var connectionKeepAlive = false

    var expectContinue = false
    var unknownExpectation = false

    enum TransferEncoding {
        case chunked
        case invalid
        case chunkedNotLast
        case unknownCoding
    }

    init(_ bytes: UnsafeRawBufferPointer, _ fields: [FieldRange]) {
        var codings: [Range<Int>] = []
        for field in fields {
            let name = field.name
            if HTTPGrammar.equalsLowercase(bytes, name, "host") {
                hostCount += 1
                hostValue = field.value
            } else if HTTPGrammar.equalsLowercase(bytes, name, "content-length") {
                contentLengthCount += 1
                if field.value.contains(where: { bytes[$0] == HTTPGrammar.comma }) {
                    contentLengthIsList = true
                } else if let length = DecimalLength.parse(bytes, field.value) {
                    contentLength = length
                } else {
                    contentLengthInvalid = true
                }
            } else if HTTPGrammar.equalsLowercase(bytes, name, "transfer-encoding") {
                hasTransferEncoding = true
                ListElements.forEach(bytes, field.value) { codings.append($0) }
            } else if HTTPGrammar.equalsLowercase(bytes, name, "connection") {
                ListElements.forEach(bytes, field.value) { option in
                    if HTTPGrammar.equalsLowercase(bytes, option, "close") {
                        connectionClose = true
                    } else if HTTPGrammar.equalsLowercase(bytes, option, "keep-alive") {
                        connectionKeepAlive = true
                    }
                }
            } else if HTTPGrammar.equalsLowercase(bytes, name, "expect") {
                ListElements.forEach(bytes, field.value) { expectation in
                    if expectation.isEmpty { return }
                    if HTTPGrammar.equalsLowercase(bytes, expectation, "100-continue") {
                        expectContinue = true
                    } else {
                        unknownExpectation = true
                    }
                }
            }
        }
        if hasTransferEncoding {
            transferEncoding = Self.judge(bytes, codings)
        }
    }

    /// RFC 9112 §6.3: chunked must be the final coding, applied once; we decode no other
    /// coding, so anything else is 501 (RFC 9112 §6.1). Empty list elements are skipped
    /// as RFC 9110 §5.6.1 requires, but a field with no coding at all frames nothing.
    private static func judge(_ bytes: UnsafeRawBufferPointer, _ elements: [Range<Int>])
        -> TransferEncoding
    {
        let codings = elements.filter { !$0.isEmpty }
        if codings.isEmpty { return .invalid }
        for (position, coding) in codings.enumerated()
        where HTTPGrammar.equalsLowercase(bytes, coding, "chunked")
            && position != codings.count - 1
        {
            return .chunkedNotLast
        }
        if codings.count != 1 { return .unknownCoding }
        if let only = codings.first, HTTPGrammar.equalsLowercase(bytes, only, "chunked") {
            return .chunked
        }
        return .unknownCoding
    }

    /// RFC 9112 §3.2 / RFC 3986 §3.2.2: `uri-host [ ":" port ]`: unreserved, pct-encoded,
    /// sub-delims, and the `:` `[` `]` of ports and IP literals. Anything else (`/`, `@`,
    /// whitespace) would let Host disagree with what a proxy saw. The same bytes as an
    /// absolute-form target's authority, so one table serves both.
    static func isValidHost(_ bytes: UnsafeRawBufferPointer, _ value: Range<Int>) -> Bool {
        value.allSatisfy { HTTPGrammar.isAuthority(bytes[$0]) }
    }
}
