/// A provider's `Retry-After` (RFC 9110 §10.2.3) as the whole seconds tokenswap passes on
/// (CONTRACT §2): delay-seconds clamped to 1…3600, an HTTP-date turned into seconds from
/// now and clamped alike, anything else dropped. The provider's text is never copied: a
/// client that believed `99999999999999999999` would never retry (and one that converted
/// it to an integer would trap), so what the client sees is always a small integer.
enum ProviderRetryAfter {
    /// The longest wait passed on: an hour is long enough for any throttle worth honouring.
    static let range = 1...3600

    /// The clamped seconds for `text`, or nil when it is neither delay-seconds nor an
    /// HTTP-date.
    /// - Parameter now: seconds since the epoch, for an HTTP-date.
    static func seconds(_ text: some StringProtocol, now: Int64) -> Int? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 64 else { return nil }
        if bytes.allSatisfy(isDigit) {
            // delay-seconds = 1*DIGIT, any length: saturate at the ceiling instead of
            // converting a number that may not fit.
            var seconds = 0
            for byte in bytes {
                seconds = seconds * 10 + Int(byte - 0x30)
                if seconds >= range.upperBound { return range.upperBound }
            }
            return max(range.lowerBound, seconds)
        }
        guard let date = HTTPDate.epochSeconds(bytes, now: now) else { return nil }
        // Both are within a few thousand years of 1970: the difference cannot overflow.
        let delta = date - now
        return Int(min(max(delta, Int64(range.lowerBound)), Int64(range.upperBound)))
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
