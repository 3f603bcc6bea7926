/// What one IPv6 allocation may do against a per-client cap or limit (CONTRACT §15): a
/// site gets a /48 (RFC 6177), which holds 65,536 /64s, each of which would otherwise be a
/// fresh client. Every cap and limit that keys IPv6 clients by a longer prefix also counts
/// the enclosing /48 against `allowanceFactor` clients' worth. One definition for the
/// connection cap (`ClientConnectionCounts`) and the rate limits (TokenSwap's
/// `RateLimiter`).
package enum IPv6Site {
    package static let prefixLength = 48
    package static let allowanceFactor = 16
}
