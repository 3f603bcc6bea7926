import Foundation
import Testing

@testable import Sealing

/// The digests `Sealing` lends the rest of the service (legacy formats, the sandbox's
/// PKCE and form token).
@Suite struct SHA256Tests {
    /// FIPS 180-2's "abc" example (was in `LegacyFormatTests`).
    @Test func digestMatchesTheStandardExample() {
        #expect(
            SHA256.digest(Array("abc".utf8)).map { $0.prefix(4) } == [0xba, 0x78, 0x16, 0xbf])
    }

    /// RFC 2104's HMAC-SHA256, checked against RFC 4231 test case 2.
    @Test func hmacMatchesRFC4231() throws {
        let mac = try #require(
            SHA256.hmac(
                key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
        #expect(
            mac.map { String(format: "%02x", $0) }.joined()
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }
}
