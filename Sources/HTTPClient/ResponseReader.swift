import HTTPCore

/// Assembles one response from the bytes of a connection with HTTPCore's strict parsers:
/// the head by `ResponseHeadParser`, the body by its framing (RFC 9112 §6.3) — a
/// Content-Length count, `ChunkedDecoder`, or everything until close. Interim 1xx heads
/// are skipped (RFC 9110 §15.2).
struct ResponseReader {
    let method: HTTPMethod
    let limits: HTTPLimits
    private var headParser: ResponseHeadParser
    private var head: ResponseHead?
    private var body: [UInt8] = []
    private var chunks: ChunkedDecoder?
    private var complete = false
    /// Whether any byte of a response arrived: after that, nothing may be retried.
    private(set) var hasReceivedBytes = false

    init(method: HTTPMethod, limits: HTTPLimits) {
        self.method = method
        self.limits = limits
        self.headParser = ResponseHeadParser(limits: limits)
    }

    /// Whether the connection may carry another request after this response.
    var keepAlive: Bool { complete && (head?.keepAlive ?? false) }

    var response: HTTPResponse {
        HTTPResponse(
            status: head?.status ?? .badGateway, headers: head?.headers ?? HTTPHeaders(), body: body
        )
    }

    /// Takes what it can from the front of `buffer`; true once the response is complete.
    /// Bytes after the response stay in `buffer`.
    mutating func consume(_ buffer: inout [UInt8]) throws(HTTPClientError) -> Bool {
        if !buffer.isEmpty { hasReceivedBytes = true }
        while head == nil {
            let parsed: ResponseHead?
            do {
                parsed = try headParser.parse(buffer, requestMethod: method)
            } catch {
                throw mapped(error)
            }
            guard let parsed else { return false }
            buffer.removeFirst(parsed.byteCount)
            if parsed.isInformational {
                // 101 would switch protocols, which we never ask for.
                guard parsed.status.code != 101 else {
                    throw .protocolError(reason: "unexpected 101 Switching Protocols")
                }
                continue
            }
            head = parsed
            if parsed.framing == .chunked { chunks = ChunkedDecoder(limits: limits) }
        }
        guard let head else { return false }
        switch head.framing {
        case .none:
            complete = true
        case .contentLength(let length):
            let take = min(length - body.count, buffer.count)
            body.append(contentsOf: buffer[0..<take])
            buffer.removeFirst(take)
            complete = body.count == length
        case .untilClose:
            guard body.count + buffer.count <= limits.maxBodyBytes else {
                throw .responseTooLarge(limitBytes: limits.maxBodyBytes)
            }
            body.append(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
        case .chunked:
            complete = try decodeChunks(&buffer)
        }
        return complete
    }

    private mutating func decodeChunks(_ buffer: inout [UInt8]) throws(HTTPClientError) -> Bool {
        guard var decoder = chunks else { return false }
        defer { chunks = decoder }
        do {
            let consumed = try decoder.decode(buffer, into: &body)
            buffer.removeFirst(consumed)
            return decoder.isComplete
        } catch {
            throw mapped(error)
        }
    }

    /// The server closed the connection: that ends a close-delimited body (RFC 9112 §6.3
    /// rule 8); for any other framing the response is incomplete, and an incomplete
    /// response is an error, never a short success (§8).
    mutating func finishAtEndOfStream() throws(HTTPClientError) {
        guard let head, head.framing == .untilClose else {
            throw .protocolError(reason: "connection closed before the response was complete")
        }
        complete = true
    }

    private func mapped(_ error: HTTPParseError) -> HTTPClientError {
        switch error {
        case .contentTooLarge: return .responseTooLarge(limitBytes: limits.maxBodyBytes)
        case .headerTooLarge, .headerLineTooLong, .tooManyHeaderFields, .statusLineTooLong:
            return .responseTooLarge(limitBytes: limits.maxHeaderBytes)
        default: return .protocolError(reason: "\(error)")
        }
    }
}
