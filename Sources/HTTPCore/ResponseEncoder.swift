/// Writes responses as bytes into one buffer that is kept and reused: status line, `Date`,
/// the handler's fields, framing, then the body, so head and body leave in one `send`.
///
/// The encoder owns framing (RFC 9112 §6): it always writes `Content-Length` for our
/// bodies, none for 1xx/204/304, and for a response to HEAD the length the body would
/// have had but no body (RFC 9110 §9.3.2). A handler's own `Content-Length`,
/// `Transfer-Encoding`, `Connection` and `Date` fields are ignored.
///
/// Response splitting (RFC 9112 §11.1, HTTP1-RULES rule 27): a field whose name is not a
/// token or whose value holds CR, LF, NUL or another control byte is DROPPED, never
/// written; `encode` returns how many were dropped so the server can log it. Dropping
/// (rather than failing the response) keeps a handler bug from turning into a 500 for
/// the client while guaranteeing no input byte can start a new line.
public struct ResponseEncoder: Sendable {
    /// The encoded response; valid until the next `encode`.
    public private(set) var bytes: [UInt8] = []

    public init(reservingCapacity capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// The interim response sent before reading a body announced with
    /// `Expect: 100-continue` (RFC 9110 §10.1.1).
    public static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Encodes `response` into `bytes`, replacing what was there.
    /// - Parameters:
    ///   - requestMethod: the method of the request answered (HEAD gets no body).
    ///   - requestVersion: an HTTP/1.0 request kept alive is told so with
    ///     `Connection: keep-alive` (RFC 9112 §9.3).
    ///   - closeConnection: write `Connection: close` (RFC 9112 §9.6).
    ///   - date: the `Date` value, from a `DateCache`; empty for none.
    /// - Returns: the number of fields dropped as invalid.
    @discardableResult
    public mutating func encode(
        _ response: HTTPResponse, requestMethod: HTTPMethod = .get,
        requestVersion: HTTPVersion = .http1_1, closeConnection: Bool = false,
        date: [UInt8] = []
    ) -> Int {
        bytes.removeAll(keepingCapacity: true)
        // A status outside 100...599 cannot be written as 3DIGIT meaningfully (RFC 9110
        // §15); it is a handler bug, answered as 500.
        let status =
            (100...599).contains(response.status.code) ? response.status : .internalServerError
        bytes.appendASCII("HTTP/1.1 ")
        bytes.appendDecimal(status.code)
        bytes.append(HTTPGrammar.space)
        if FieldCheck.isValidValue(status.reasonPhrase) {
            bytes.append(contentsOf: status.reasonPhrase.utf8)
        }
        bytes.appendCRLF()

        if !date.isEmpty {
            bytes.appendASCII("Date: ")
            bytes.append(contentsOf: date)
            bytes.appendCRLF()
        }
        var dropped = 0
        for field in response.headers {
            if FieldCheck.isFramingField(field.name) || HTTPHeaders.namesMatch(field.name, "Date") {
                continue
            }
            guard FieldCheck.isValidName(field.name), FieldCheck.isValidValue(field.value) else {
                dropped += 1
                continue
            }
            bytes.appendField(field.name, field.value)
        }

        // RFC 9112 §6.3 rule 1 / RFC 9110 §8.6: 1xx and 204 never carry Content-Length;
        // 304 may but need not, and we do not.
        let code = status.code
        let mayHaveBody = code >= 200 && code != 204 && code != 304
        if mayHaveBody {
            bytes.appendASCII("Content-Length: ")
            bytes.appendDecimal(response.body.count)
            bytes.appendCRLF()
        }
        if closeConnection {
            bytes.appendASCII("Connection: close\r\n")
        } else if !requestVersion.isAtLeastHTTP11 {
            bytes.appendASCII("Connection: keep-alive\r\n")
        }
        bytes.appendCRLF()
        if mayHaveBody, requestMethod != .head {
            bytes.append(contentsOf: response.body)
        }
        return dropped
    }

    /// Gives the buffer's memory back (an idle connection need not hold it).
    public mutating func releaseBuffer() {
        bytes = []
    }
}
