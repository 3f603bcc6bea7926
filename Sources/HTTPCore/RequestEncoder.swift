/// Writes upstream requests into one reusable buffer: request line (always HTTP/1.1),
/// `Host`, the caller's fields, `Content-Length`, then the body.
///
/// Unlike `ResponseEncoder` it refuses rather than drops an invalid field: an upstream
/// request missing, say, its `Authorization` would fail in a confusing way, and every
/// field here comes from our own code.
public struct RequestEncoder: Sendable {
    /// The encoded request; valid until the next `encode`.
    public private(set) var bytes: [UInt8] = []

    public init(reservingCapacity capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// Encodes `request` into `bytes`, replacing what was there.
    /// - Parameter host: the `Host` value, `uri-host [":" port]` (RFC 9112 §3.2); the
    ///   request's own Host field, if any, is ignored.
    /// - Throws: `HTTPEncodingError`, leaving `bytes` empty.
    public mutating func encode(_ request: HTTPRequest, host: String)
        throws(HTTPEncodingError)
    {
        try encode(
            method: request.method, target: request.target, headers: request.headers,
            body: request.body, host: host)
    }

    /// `encode(_:host:)` of a request given by its parts (a client's request is not an
    /// `HTTPRequest`: no copy of its parts into one is made).
    public mutating func encode(
        method: HTTPMethod, target: String, headers: HTTPHeaders, body: [UInt8], host: String
    ) throws(HTTPEncodingError) {
        bytes.removeAll(keepingCapacity: true)
        do throws(HTTPEncodingError) {
            try write(method: method, target: target, headers: headers, body: body, host: host)
        } catch {
            bytes.removeAll(keepingCapacity: true)
            throw error
        }
    }

    private mutating func write(
        method requestMethod: HTTPMethod, target: String, headers: HTTPHeaders, body: [UInt8],
        host: String
    ) throws(HTTPEncodingError) {
        let method = requestMethod.rawValue
        guard FieldCheck.isValidName(method) else { throw .invalidMethod }
        guard !target.isEmpty, FieldCheck.allBytes(of: target, satisfy: HTTPGrammar.isVisible)
        else {
            throw .invalidTarget
        }
        var host = host
        let validHost = host.withUTF8 {
            !$0.isEmpty && FieldSemantics.isValidHost(UnsafeRawBufferPointer($0), 0..<$0.count)
        }
        guard validHost else { throw .invalidHost }

        bytes.append(contentsOf: method.utf8)
        bytes.append(HTTPGrammar.space)
        bytes.append(contentsOf: target.utf8)
        bytes.appendASCII(" HTTP/1.1\r\nHost: ")
        bytes.append(contentsOf: host.utf8)
        bytes.appendCRLF()
        for field in headers {
            if HTTPHeaders.namesMatch(field.name, "Host")
                || HTTPHeaders.namesMatch(field.name, "Content-Length")
                || HTTPHeaders.namesMatch(field.name, "Transfer-Encoding")
            {
                continue
            }
            guard FieldCheck.isValidName(field.name) else {
                throw .invalidFieldName(field.name)
            }
            guard FieldCheck.isValidValue(field.value) else {
                throw .invalidFieldValue(name: field.name)
            }
            bytes.appendField(field.name, field.value)
        }
        // RFC 9110 §8.6: send Content-Length when there is content, or when the method
        // gives content a meaning (POST, PUT, PATCH) even if it is empty.
        let methodExpectsContent =
            requestMethod == .post || requestMethod == .put || requestMethod == .patch
        if !body.isEmpty || methodExpectsContent {
            bytes.appendASCII("Content-Length: ")
            bytes.appendDecimal(body.count)
            bytes.appendCRLF()
        }
        bytes.appendCRLF()
        bytes.append(contentsOf: body)
    }
}
