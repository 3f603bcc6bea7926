import HTTPCore

/// Turns a handler's response into the bytes of one `send`: status line, the handler's
/// fields, the framing fields the server owns, and the body.
enum ResponseWriter {
    /// - Parameters:
    ///   - omitBody: a response to HEAD: Content-Length as for GET, no body (RFC 9110
    ///     §9.3.2).
    ///   - keepAlive: false adds `Connection: close` (RFC 9112 §9.6); true for an HTTP/1.0
    ///     request adds `Connection: keep-alive`, which 1.0 needs to persist (§9.3).
    static func encode(
        _ response: HTTPResponse, omitBody: Bool, keepAlive: Bool, requestVersion: HTTPVersion
    ) -> [UInt8] {
        guard isSafe(response.headers) else {
            // A handler produced a field that would split the response (RFC 9112 §11.1
            // on response splitting): answer a generic 500 instead of sending it.
            return encode(
                ServerError.handlerFailed.response, omitBody: omitBody, keepAlive: false,
                requestVersion: requestVersion)
        }
        let code = response.status.code
        // RFC 9112 §6.1/§6.3: no framing fields (and no body) for 1xx, 204 and 304.
        let bodiless = code < 200 || code == 204 || code == 304
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128 + response.headers.count * 32 + response.body.count)
        bytes.append(contentsOf: "HTTP/1.1 \(code) \(response.status.reasonPhrase)\r\n".utf8)
        for field in response.headers where !isServerOwned(field.name) {
            append(field.name, field.value, to: &bytes)
        }
        if !bodiless {
            append("Content-Length", String(response.body.count), to: &bytes)
        }
        if !keepAlive {
            append("Connection", "close", to: &bytes)
        } else if requestVersion == .http1_0 {
            append("Connection", "keep-alive", to: &bytes)
        }
        bytes.append(13)
        bytes.append(10)
        if !omitBody, !bodiless {
            bytes.append(contentsOf: response.body)
        }
        return bytes
    }

    private static func append(_ name: String, _ value: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: name.utf8)
        bytes.append(58)  // ":"
        bytes.append(32)
        bytes.append(contentsOf: value.utf8)
        bytes.append(13)
        bytes.append(10)
    }

    /// Framing and persistence are the server's decision, never a handler's.
    private static func isServerOwned(_ name: String) -> Bool {
        HTTPHeaders.namesMatch(name, "Content-Length")
            || HTTPHeaders.namesMatch(name, "Transfer-Encoding")
            || HTTPHeaders.namesMatch(name, "Connection")
    }

    /// Field names are tokens; values have no CR, LF or NUL (RFC 9110 §5.5).
    private static func isSafe(_ headers: HTTPHeaders) -> Bool {
        headers.allSatisfy { field in
            !field.name.isEmpty
                && field.name.utf8.allSatisfy { $0 > 32 && $0 < 127 && $0 != 58 }
                && field.value.utf8.allSatisfy { $0 != 13 && $0 != 10 && $0 != 0 }
        }
    }
}
