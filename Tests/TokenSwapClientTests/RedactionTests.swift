import Foundation
import Testing
import TokenSwapClient

/// No token, code or secret in any description, debug description, dump, error or event.
@Suite struct RedactionTests {
    static let secrets = [
        "access-1", "refresh-1", "dc-secret", "WDJB-MJHT", "sdk-access", "sdk-refresh",
    ]

    static func everyRendering(of value: Any) -> String {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), "\(value)", dumped]
            .joined(separator: "\n")
    }

    static func expectNoSecrets(_ value: Any, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = everyRendering(of: value)
        for secret in secrets {
            #expect(!text.contains(secret), "\(secret) appeared", sourceLocation: sourceLocation)
        }
    }

    @Test func tokensAnswersAndDeviceSignInsPrintWithoutSecrets() throws {
        let answer = try TokenAnswer(
            json: Data(
                #"{"access_token":"sdk-access","refresh_token":"sdk-refresh","expires_in":60}"#.utf8
            ))
        Self.expectNoSecrets(answer)
        Self.expectNoSecrets(answer.accessToken)
        Self.expectNoSecrets([answer.refreshToken])
        let authorization = DeviceSignIn(
            deviceCode: RedactedToken("dc-secret"), userCode: RedactedToken("WDJB-MJHT"),
            verificationURI: try #require(URL(string: "https://t.test/device")),
            verificationURIComplete: URL(string: "https://t.test/device?user_code=WDJB-MJHT"),
            expiresInSeconds: 60, intervalSeconds: 5)
        Self.expectNoSecrets(authorization)
        #expect(Self.everyRendering(of: authorization).contains("https://t.test/device"))
    }

    @Test func aSessionDumpsWithoutItsTokens() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        _ = try await fixture.signedIn()
        #expect(try await fixture.session.accessToken() == "access-1")
        Self.expectNoSecrets(fixture.session)
        Self.expectNoSecrets(await fixture.events(1))
    }

    @Test func errorsCarryNoTokens() async throws {
        let fixture = try SessionFixture(storedRefreshToken: "refresh-1")
        await fixture.server.script("/v1/refresh", .noAnswer(.secureConnectionFailed))
        do {
            _ = try await fixture.session.accessToken()
            Issue.record("expected a failure")
        } catch {
            Self.expectNoSecrets(error)
        }
        let backend = fixture.session.backend
        do {
            _ = try await backend.refresh(RedactedToken("refresh-1"))
            Issue.record("expected a failure")
        } catch {
            // The fake's refresh-0 is current: refresh-1 is rejected, and not echoed.
            Self.expectNoSecrets(error)
        }
    }
}
