import Foundation
import Testing
import TokenSwapClient

/// The names before issue 19 still compile (deprecated) and do what the new ones do, so
/// an app that updates the package keeps building.
@Suite struct DeprecatedNamesTests {
    @available(*, deprecated, message: "exercises the deprecated names")
    @Test func theOldNamesStillWork() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let server = try await fixture.signedIn()
        let backend: TokenSwapService = fixture.session.service
        let session = TokenSession(service: backend, store: MemoryCredentialStore())
        #expect(session.backend.endpoints == fixture.session.backend.endpoints)
        _ = DeviceFlow(service: backend)
        let (_, response) = try await fixture.session.authorizedRequest(SessionFixture.api)
        #expect(response.statusCode == 200)
        #expect(try await fixture.session.accessTokenRefused("access-1") == "access-2")
        #expect(await server.count("/v1/refresh") == 1)
        let outcome: RevocationOutcome? = try await fixture.session.signOut()
        #expect(outcome == TokenRevocation.revoked)
        let authorization: DeviceAuthorization = DeviceSignIn(
            deviceCode: RedactedToken("d"), userCode: RedactedToken("u"),
            verificationURI: try #require(URL(string: "https://t.test/device")),
            verificationURIComplete: nil, expiresInSeconds: 60, intervalSeconds: 5)
        #expect(authorization.intervalSeconds == 5)
    }
}
