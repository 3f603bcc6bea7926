import HTTPCore
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct DateCacheTests {
    /// IMF-fixdate (RFC 9110 §5.6.7), including its own example.
    @Test(arguments: [
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (1_763_683_199, "Thu, 20 Nov 2025 23:59:59 GMT"),
        (4_102_444_800, "Fri, 01 Jan 2100 00:00:00 GMT"),
        (253_402_300_799, "Fri, 31 Dec 9999 23:59:59 GMT"),
    ])
    func formatsIMFFixdate(seconds: Int, expected: String) {
        #expect(
            String(decoding: DateCache.imfFixdate(secondsSince1970: seconds), as: UTF8.self)
                == expected)
    }

    @Test func yearsBeyondFourDigitsFallBackToTheEpoch() {
        #expect(
            String(decoding: DateCache.imfFixdate(secondsSince1970: 253_402_300_800), as: UTF8.self)
                == "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    @Test func cacheGivesTheCurrentSecond() {
        var cache = DateCache()
        let before = Int(time(nil))
        let value = cache.imfFixdate()
        let after = Int(time(nil))
        let candidates = Set((before...after).map { DateCache.imfFixdate(secondsSince1970: $0) })
        #expect(candidates.contains(value))
        #expect(value.count == 29)
        #expect(cache.imfFixdate().count == 29)
    }
}
