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

/// RFC 9110 §5.6.7's three date forms, as seconds since the epoch: IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), and the obsolete RFC 850 (`Sunday, 06-Nov-94
/// 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) forms a recipient must accept.
enum HTTPDate {
    static let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    static let shortDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let longDays = [
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
    ]

    static func epochSeconds(_ bytes: [UInt8], now: Int64) -> Int64? {
        let text = String(decoding: bytes, as: UTF8.self)
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        // IMF-fixdate: day-name "," SP date1 SP time-of-day SP GMT; date1 = 2DIGIT SP month SP 4DIGIT.
        if words.count == 6, words[0].hasSuffix(","),
            shortDays.contains(String(words[0].dropLast())),
            words[5] == "GMT", words[1].count == 2, words[3].count == 4,
            let day = number(words[1]), let month = month(words[2]), let year = number(words[3])
        {
            return timestamp(year: year, month: month, day: day, time: words[4])
        }
        // rfc850-date: day-name-l "," SP date2 SP time-of-day SP GMT; date2 = 2DIGIT "-" month "-" 2DIGIT.
        if words.count == 4, words[0].hasSuffix(","),
            longDays.contains(String(words[0].dropLast())),
            words[3] == "GMT"
        {
            let parts = words[1].split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 2, parts[2].count == 2,
                let day = number(parts[0]), let month = month(parts[1]),
                let shortYear = number(parts[2])
            else { return nil }
            // RFC 9110 §5.6.7: a two-digit year more than 50 years in the future is the
            // most recent past year with those digits.
            let currentYear = Int(1970 + now / 31_556_952)
            var year = currentYear - currentYear % 100 + shortYear
            if year > currentYear + 50 { year -= 100 }
            return timestamp(year: year, month: month, day: day, time: words[2])
        }
        // asctime-date: day-name SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time-of-day SP year.
        let compact = text.split(separator: " ")
        if compact.count == 5, shortDays.contains(String(compact[0])), bytes.count == 24,
            let month = month(compact[1]), (1...2).contains(compact[2].count),
            let day = number(compact[2]), compact[4].count == 4, let year = number(compact[4])
        {
            return timestamp(year: year, month: month, day: day, time: compact[3])
        }
        return nil
    }

    static func month(_ text: Substring) -> Int? {
        months.firstIndex(of: String(text)).map { $0 + 1 }
    }

    /// Digits only, at most 4 of them (no sign, no spaces).
    static func number(_ text: Substring) -> Int? {
        guard (1...4).contains(text.utf8.count), text.utf8.allSatisfy(ProviderRetryAfter.isDigit)
        else { return nil }
        return text.utf8.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `HH:MM:SS` on the civil date, UTC; nil for an impossible date or time.
    static func timestamp(year: Int, month: Int, day: Int, time: Substring) -> Int64? {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 }),
            let hour = number(parts[0]), let minute = number(parts[1]),
            let second = number(parts[2]), hour < 24, minute < 60, second < 61,
            (1...31).contains(day), year >= 1900
        else { return nil }
        return Int64(
            unixSeconds(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    }

    /// Seconds since 1970 of a civil date and time in UTC, already checked to be in range
    /// (HTTP dates here, RFC 3339 times in `Provider+Introspection`). Days from the civil
    /// date by Howard Hinnant's algorithm: no calendar API needed.
    static func unixSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)
        -> Int
    {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3_600 + minute * 60 + second
    }
}
