import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. A date is measured
/// against the answer's own `Date` header when it has one, so a device clock that is
/// minutes off does not turn "retry in 30 s" into "retry in 10 minutes" or "now".
///
/// Either form is clamped to `1...3600` seconds, as tokenswap clamps a provider's
/// (CONTRACT §2): a session that honours `Retry-After: 99999999999999999999` as it stands
/// would never refresh again, and one that honours `0` would ask again at once.
enum RetryAfter {
    static let minimumSeconds: Double = 1
    static let maximumSeconds: Double = 3600

    static func seconds(in response: HTTPURLResponse) -> Double? {
        guard
            let value = response.value(forHTTPHeaderField: "Retry-After")?
                .trimmingCharacters(in: .whitespaces), !value.isEmpty
        else { return nil }
        if value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // Too many digits for a Double is +infinity, which the clamp makes an hour.
            return Double(value).map(clamped)
        }
        guard let date = httpDate(value) else { return nil }
        let reference = response.value(forHTTPHeaderField: "Date").flatMap(httpDate) ?? Date()
        return clamped(date.timeIntervalSince(reference))
    }

    /// Any number of seconds into `minimumSeconds...maximumSeconds`; NaN is the minimum.
    static func clamped(_ seconds: Double) -> Double {
        guard !seconds.isNaN else { return minimumSeconds }
        return min(max(seconds, minimumSeconds), maximumSeconds)
    }

    /// IMF-fixdate (RFC 9110 §5.6.7), the only format a sender may generate.
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }
}
