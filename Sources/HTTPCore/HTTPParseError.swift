/// Why a message head or chunked body was refused, one named reason per rejection (in the
/// way of llhttp), each mapping to the status a server answers with. All of them end the
/// connection: after a framing error the next message boundary is unknown.
///
/// For a response read by the client, `status` is what a server would have answered to
/// such a request; the client reports any of these as an upstream error (502) instead.
public enum HTTPParseError: Error, Sendable, Hashable {
    // Start line (RFC 9112 §3, §4, §2.3).
    case invalidRequestLine
    case invalidMethod
    case invalidTarget
    case requestLineTooLong
    case invalidVersion
    case unsupportedVersion
    case invalidStatusLine
    case statusLineTooLong

    // Line endings (RFC 9112 §2.2).
    case bareLF
    case bareCR
    case tooManyLeadingEmptyLines

    // Field lines (RFC 9112 §5, RFC 9110 §5).
    case whitespaceBeforeFirstHeader
    case obsFold
    case invalidFieldName
    case spaceBeforeColon
    case invalidFieldValue
    case headerLineTooLong
    case headerTooLarge
    case tooManyHeaderFields

    // Semantics of the head (RFC 9112 §3.2, §6, §9.3; RFC 9110 §10.1.1).
    case missingHost
    case duplicateHost
    case invalidHost
    case invalidContentLength
    case duplicateContentLength
    case transferEncodingWithContentLength
    case transferEncodingInHTTP10
    case invalidTransferEncoding
    case chunkedNotLast
    case unknownTransferCoding
    case unknownExpectation
    case contentTooLarge

    // Chunked body (RFC 9112 §7.1).
    case invalidChunkSize
    case invalidChunkExtension
    case chunkExtensionTooLong
    case missingChunkDataCRLF
    case trailersTooLarge

    /// The status a server answers with.
    public var status: HTTPStatus {
        switch self {
        case .requestLineTooLong: .uriTooLong
        case .unsupportedVersion: .httpVersionNotSupported
        case .headerLineTooLong, .headerTooLarge, .tooManyHeaderFields, .trailersTooLarge:
            .requestHeaderFieldsTooLarge
        case .unknownTransferCoding: .notImplemented
        case .unknownExpectation: .expectationFailed
        case .contentTooLarge: .contentTooLarge
        case .invalidStatusLine, .statusLineTooLong: .badGateway
        default: .badRequest
        }
    }
}
