import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. A date is measured
/// against the answer's own `Date` header when it has one, so a device clock that is
/// minutes off does not turn "retry in 30 s" into "retry in 10 minutes" or "now".
enum RetryAfter {
    static func seconds(in response: HTTPURLResponse) -> Double? {
        guard
            let value = response.value(forHTTPHeaderField: "Retry-After")?
                .trimmingCharacters(in: .whitespaces), !value.isEmpty
        else { return nil }
        if value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return Double(value)
        }
        guard let date = httpDate(value) else { return nil }
        let reference = response.value(forHTTPHeaderField: "Date").flatMap(httpDate) ?? Date()
        return max(0, date.timeIntervalSince(reference))
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
