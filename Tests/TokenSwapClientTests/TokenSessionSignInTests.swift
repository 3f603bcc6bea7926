import Foundation
import Testing
import TokenSwapClient

/// Signing in (swap answer), and introspection.
@Suite struct TokenSessionSignInTests {
    @Test func aSwapSignsInAndStoresTheRefreshToken() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        try await fixture.session.signIn(
            code: "the code", codeVerifier: "verifier", redirectURI: "app://cb")
        let swap = try #require(await fixture.server.requests.first)
        #expect(swap.path == "/v1/swap")
        #expect(
            swap.form == [
                "code": "the code", "code_verifier": "verifier", "redirect_uri": "app://cb",
            ])
        #expect(await fixture.store.stored?.revealed == "refresh-1")
        #expect(await fixture.session.status() == .signedIn)
        #expect(try await fixture.session.accessToken() == "access-1")
        #expect(await fixture.events(1) == [.signedIn])
    }

    @Test func aSwapRejectedIsThrownAndSignsNobodyIn() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        await fixture.server.script(
            "/v1/swap",
            .answer(
                status: 400, body: #"{"error":"invalid_grant","error_description":"code used"}"#))
        await #expect(
            throws: TokenSwapClientError.rejected(
                OAuthErrorAnswer(status: 400, error: "invalid_grant", errorDescription: "code used")
            )
        ) { try await fixture.session.signIn(code: "c") }
        #expect(await fixture.session.status() == .signedOut(.neverSignedIn))
    }

    @Test func aSignInDuringARefreshWinsOverItsAnswer() async throws {
        let fixture = try SessionFixture(storedRefreshToken: "refresh-0")
        let gate = Gate()
        await fixture.server.holdRefreshes(at: gate)
        let early = Task { try await fixture.session.accessToken() }
        while await fixture.server.count("/v1/refresh") == 0 { await Task.yield() }
        let signIn = Task {
            try await fixture.session.signIn(
                with: TokenAnswer(
                    accessToken: RedactedToken("new-user"),
                    refreshToken: RedactedToken("new-refresh"), expiresInSeconds: 3600))
        }
        await gate.open()
        try await signIn.value
        _ = try? await early.value
        #expect(try await fixture.session.accessToken() == "new-user")
        #expect(await fixture.store.stored?.revealed == "new-refresh")
    }

    @Test func introspectAsksAboutTheCurrentAccessToken() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let server = try await fixture.signedIn()
        #expect(
            try await fixture.session.introspect()
                == Introspection(
                    active: true, scope: "s", expiresAtEpochSeconds: 1_900_000_000, clientID: "c"))
        #expect(await server.requests.last?.form == ["token": "access-1"])
        await server.revokeCurrentAccessToken()
        #expect(try await fixture.session.introspect() == Introspection(active: false))
    }
}
