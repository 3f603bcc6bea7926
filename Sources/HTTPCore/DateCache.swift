#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `Date` field value (IMF-fixdate, RFC 9110 §5.6.7), formatted once per second.
///
/// Concurrency: a plain value with a mutating accessor, so the compiler's exclusivity
/// rules already forbid two threads using one at once. Keep one per event loop (each
/// loop's serial queue owns its copy); there is nothing to lock.
public struct DateCache: Sendable {
    private var cachedSecond = Int.min
    private var cachedValue: [UInt8] = []

    public init() {}

    /// The current time as IMF-fixdate bytes, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    public mutating func imfFixdate() -> [UInt8] {
        let now = Int(time(nil))
        if now != cachedSecond {
            cachedSecond = now
            cachedValue = Self.imfFixdate(secondsSince1970: now)
        }
        return cachedValue
    }

    private static let dayNames: [StaticString] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames: [StaticString] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// Formats a POSIX time as IMF-fixdate:
    /// `day-name "," SP 2DIGIT SP month SP 4DIGIT SP 2DIGIT ":" 2DIGIT ":" 2DIGIT SP "GMT"`.
    public static func imfFixdate(secondsSince1970: Int) -> [UInt8] {
        var seconds = time_t(secondsSince1970)
        var parts = tm()
        var out: [UInt8] = []
        out.reserveCapacity(29)
        guard gmtime_r(&seconds, &parts) != nil,
            (0..<7).contains(Int(parts.tm_wday)), (0..<12).contains(Int(parts.tm_mon)),
            (0...9999).contains(Int(parts.tm_year) + 1900)
        else {
            // Outside what 4DIGIT can say; the epoch is a truthful "unknown" stand-in.
            return secondsSince1970 == 0 ? [] : imfFixdate(secondsSince1970: 0)
        }
        out.appendASCII(dayNames[Int(parts.tm_wday)])
        out.appendASCII(", ")
        appendPadded(Int(parts.tm_mday), width: 2, to: &out)
        out.append(HTTPGrammar.space)
        out.appendASCII(monthNames[Int(parts.tm_mon)])
        out.append(HTTPGrammar.space)
        appendPadded(Int(parts.tm_year) + 1900, width: 4, to: &out)
        out.append(HTTPGrammar.space)
        appendPadded(Int(parts.tm_hour), width: 2, to: &out)
        out.append(HTTPGrammar.colon)
        appendPadded(Int(parts.tm_min), width: 2, to: &out)
        out.append(HTTPGrammar.colon)
        appendPadded(Int(parts.tm_sec), width: 2, to: &out)
        out.appendASCII(" GMT")
        return out
    }

    private static func appendPadded(_ value: Int, width: Int, to out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            out.append(UInt8(truncatingIfNeeded: (rest / divisor) % 10) + 0x30)
            rest %= divisor
            divisor /= 10
        }
    }
}
