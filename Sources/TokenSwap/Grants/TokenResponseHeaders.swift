import HTTPCore

/// Headers on every token endpoint response, success or error (CONTRACT §2; RFC 6749
/// §5.1: tokens must not be cached).
public enum TokenResponseHeaders {
    public static let base = HTTPHeaders([
        ("Content-Type", "application/json"),
        ("Cache-Control", "no-store"),
        ("Pragma", "no-cache"),
    ])
}
