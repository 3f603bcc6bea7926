import HTTPCore
import Testing

@testable import TokenSwap

/// The provider's device authorization numbers (RFC 8628 §3.2) before they reach the
/// sealed code and the clock (CONTRACT §15): clamped or refused, never trapped on.
@Suite struct DeviceAuthorizationAnswerTests {
    static func answer(expiresIn: String, interval: String? = nil) throws(GrantError)
        -> DeviceAuthorizationAnswer
    {
        let members =
            [
                #""device_code":"d","user_code":"U","verification_uri":"https://x/device""#,
                #""expires_in":\#(expiresIn)"#,
            ] + (interval.map { [#""interval":\#($0)"#] } ?? [])
        let body = "{" + members.joined(separator: ",") + "}"
        return try ProviderDialect.rfc8628.interpretDeviceAuthorization(
            HTTPResponse(status: .ok, headers: TokenResponseHeaders.base, body: Array(body.utf8)))
    }

    @Test func aLongExpiryIsShortenedToADay() throws {
        #expect(try Self.answer(expiresIn: "1800").expiresIn == 1800)
        #expect(try Self.answer(expiresIn: "86400").expiresIn == 86_400)
        // A century (the most `expires_in` grammar takes), as a number and a string.
        for century in ["3162240000", #""3162240000""#, "3.16224e9"] {
            #expect(try Self.answer(expiresIn: century).expiresIn == 86_400, "\(century)")
        }
    }

    @Test func numbersPastTheGrammarAreRefusedNotTrappedOn() {
        for (expiresIn, interval) in [
            ("9223372036854775807", nil), ("-9223372036854775808", nil), ("1e300", nil),
            ("0", nil), ("1800", "9223372036854775807"), ("1800", "-1"), ("1800", "3601"),
        ] as [(String, String?)] {
            #expect(throws: GrantError.self, "\(expiresIn) \(interval ?? "-")") {
                try Self.answer(expiresIn: expiresIn, interval: interval)
            }
        }
        #expect(
            (try? Self.answer(expiresIn: "1800", interval: "3600"))?.intervalSeconds == 3600)
        #expect((try? Self.answer(expiresIn: "1800", interval: "0"))?.intervalSeconds == 1)
    }
}
