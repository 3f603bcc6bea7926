import Foundation
import Testing
import TokenSwapClient

/// Every description prints whatever number it holds, without trapping: a wait of
/// infinity, NaN or 1e300 is printed, not converted to `Int` (which traps past `Int.max`).
@Suite struct DescriptionTests {
    static let waits: [Double] = [
        .infinity, -.infinity, .nan, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        1e20, 9.3e18, -1, -0.5, 0, 0.2, 1, 3600,
    ]

    @Test(arguments: waits)
    func aWaitOfAnySizePrints(seconds: Double) {
        let error = TokenSwapClientError.temporarilyUnavailable(retryAfterSeconds: seconds)
        let failure = TransientFailure(kind: .network, retryAfterSeconds: seconds)
        for text in [
            error.description, failure.description,
            "\(TokenSessionEvent.transientFailure(failure))",
            String(reflecting: error),
        ] {
            #expect(text.contains("retry after"))
        }
    }

    @Test func wholeSecondsRoundUpAndSaturate() {
        func text(_ seconds: Double) -> String {
            TokenSwapClientError.temporarilyUnavailable(retryAfterSeconds: seconds).description
        }
        #expect(text(0.2) == "temporarily unavailable, retry after 1 s")
        #expect(text(3600) == "temporarily unavailable, retry after 3600 s")
        #expect(text(-3) == "temporarily unavailable, retry after 0 s")
        #expect(text(.nan) == "temporarily unavailable, retry after an unknown time")
        #expect(text(1e20) == "temporarily unavailable, retry after more than 1000000000 s")
        #expect(text(.infinity) == "temporarily unavailable, retry after more than 1000000000 s")
    }

    @Test func otherNumbersPrintAsTheyAre() throws {
        let answer = OAuthErrorAnswer(
            status: Int.max, error: "e", retryAfterSeconds: .infinity, intervalSeconds: Int.min)
        #expect(answer.description == "HTTP \(Int.max) e")
        #expect(TokenSwapClientError.unexpectedAnswer(status: Int.min).description.contains("HTTP"))
        let tokens = TokenAnswer(
            accessToken: RedactedToken("a"), refreshToken: nil, expiresInSeconds: Int.max)
        #expect(tokens.description.contains("\(Int.max)"))
        let authorization = DeviceSignIn(
            deviceCode: RedactedToken("d"), userCode: RedactedToken("u"),
            verificationURI: try #require(URL(string: "https://t.test/device")),
            verificationURIComplete: nil, expiresInSeconds: Int.max, intervalSeconds: Int.min)
        #expect(authorization.description.contains("\(Int.min)"))
    }
}
