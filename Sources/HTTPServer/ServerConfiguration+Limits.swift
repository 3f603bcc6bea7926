import HTTPCore

extension ServerConfiguration {
    /// The parser's view of the size limits.
    var parserLimits: HTTPLimits {
        HTTPLimits(
            maxRequestLineBytes: maxRequestLineBytes, maxHeaderLineBytes: maxHeaderLineBytes,
            maxHeaderBytes: maxHeaderBytes, maxHeaderFields: maxHeaderFields,
            maxBodyBytes: maxBodyBytes)
    }
}
