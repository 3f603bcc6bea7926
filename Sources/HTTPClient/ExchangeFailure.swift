/// A failed exchange on one connection, with what the retry policy needs to know.
struct ExchangeFailure: Error {
    var error: HTTPClientError
    /// True only when the request provably never reached the server: the connection was
    /// found closed (EOF or reset) before or while writing, and no response byte had
    /// arrived. A token exchange is not idempotent (RFC 6749 §4.1.2: a code is
    /// single-use), so nothing else may be retried.
    var requestNeverSent: Bool
}
