import HTTPCore
import Testing

@testable import TokenSwap

/// CONTRACT §2: a provider's `Retry-After` becomes 1…3600 whole seconds or nothing.
@Suite struct ProviderRetryAfterTests {
    /// 2026-11-26 11:00:00 UTC.
    static let now: Int64 = 1_795_690_800

    @Test(
        arguments: [
            ("0", 1), ("1", 1), ("12", 12), ("3600", 3600), ("3601", 3600),
            ("0000000000000000000000000000012", 12),
            ("99999999999999999999", 3600), (String(repeating: "9", count: 64), 3600),
            // IMF-fixdate, RFC 850 and asctime: 90 s after `now`.
            ("Thu, 26 Nov 2026 11:01:30 GMT", 90),
            ("Thursday, 26-Nov-26 11:01:30 GMT", 90),
            ("Thu Nov 26 11:01:30 2026", 90),
            ("Thu Nov  6 11:01:30 2026", 1),
            // Past dates are "now"; far ones an hour.
            ("Wed, 21 Oct 2015 07:28:00 GMT", 1),
            ("Fri, 31 Dec 9999 23:59:59 GMT", 3600),
            ("Thu, 26 Nov 2026 13:00:00 GMT", 3600),
        ] as [(String, Int)])
    func clampedSeconds(text: String, seconds: Int) {
        #expect(ProviderRetryAfter.seconds(text, now: Self.now) == seconds)
    }

    @Test(
        arguments: [
            "", "-1", "+5", "1.5", "1e3", " 5", "5 ", "0x10", "soon", "١٢",
            String(repeating: "9", count: 65),
            "Thu, 26 Nov 2026 11:01:30 UTC", "Thu, 26 Nov 2026 11:01:30",
            "26 Nov 2026 11:01:30 GMT",
            "Thu, 32 Nov 2026 11:01:30 GMT", "Thu, 26 Foo 2026 11:01:30 GMT",
            "Thu, 26 Nov 2026 25:01:30 GMT", "Thu, 26 Nov 2026 11:1:30 GMT",
            "Xyz, 26 Nov 2026 11:01:30 GMT", "Thu,  26 Nov 2026 11:01:30 GMT",
            "Thursday, 26-Nov-2026 11:01:30 GMT", "Thu Nov 26 11:01:30 26",
        ])
    func anythingElseIsDropped(text: String) {
        #expect(ProviderRetryAfter.seconds(text, now: Self.now) == nil)
    }

    /// What reaches the client: the clamped integer, never the provider's text.
    @Test func theClientSeesTheClampedValue() {
        for (sent, passed) in [("99999999999999999999", "3600"), ("0", "1"), ("junk\u{7F}", nil)] {
            let seconds = ProviderTokenResponse.retryAfterSeconds(
                HTTPHeaders([("Retry-After", sent)]), now: Self.now)
            let response = GrantError.providerThrottled(
                retryAfterSeconds: seconds, body: nil
            ).response
            #expect(response.headers["Retry-After"] == passed, "\(sent)")
        }
    }
}
