extension HTTPVersion {
    /// HTTP-version = "HTTP/" DIGIT "." DIGIT, case-sensitive (RFC 9112 §2.3). Only
    /// major version 1 is spoken here: another well-formed major is `unsupportedVersion`
    /// (505), anything else (`HTTP/1.32`, `http/1.1`, `HTTP/1`) is `invalidVersion`.
    static func parse(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>)
        throws(HTTPParseError) -> HTTPVersion
    {
        guard range.count == 8 else { throw .invalidVersion }
        let start = range.lowerBound
        // Case-sensitive: "HTTP" is not a token compared ignoring case here (§2.3).
        guard bytes[start] == UInt8(ascii: "H"), bytes[start + 1] == UInt8(ascii: "T"),
            bytes[start + 2] == UInt8(ascii: "T"), bytes[start + 3] == UInt8(ascii: "P"),
            bytes[start + 4] == UInt8(ascii: "/")
        else { throw .invalidVersion }
        let major = bytes[start + 5]
        let dot = bytes[start + 6]
        let minor = bytes[start + 7]
        guard HTTPGrammar.isDigit(major), dot == UInt8(ascii: "."), HTTPGrammar.isDigit(minor)
        else { throw .invalidVersion }
        guard major == UInt8(ascii: "1") else { throw .unsupportedVersion }
        return HTTPVersion(major: 1, minor: minor - 0x30)
    }

    /// HTTP/1.1 semantics (persistence, Host, Expect) hold for 1.1 and any later 1.x
    /// minor version (RFC 9112 §2.3: a recipient treats a higher minor as the highest it
    /// knows).
    var isAtLeastHTTP11: Bool { major > 1 || (major == 1 && minor >= 1) }
}
