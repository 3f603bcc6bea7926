import Foundation
import Testing
import TokenSwapClient

/// Signing in (swap answer), out (with revocation), and introspection.
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

    @Test func signOutRevokesTheRefreshTokenAndWipes() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let server = try await fixture.signedIn()
        #expect(try await fixture.session.signOut() == .revoked)
        let revoke = try #require(await server.requests.last)
        #expect(revoke.path == "/v1/revoke")
        #expect(revoke.form == ["token": "refresh-1", "token_type_hint": "refresh_token"])
        #expect(await fixture.store.stored == nil)
        #expect(await fixture.session.status() == .signedOut(.userRequested))
        #expect(await fixture.events(2) == [.signedIn, .signedOut(.userRequested)])
    }

    @Test func aProviderWithoutRevocationIsUnsupported() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let server = try await fixture.signedIn()
        await server.script(
            "/v1/revoke",
            .answer(status: 200, body: "{}", headers: ["Tokenswap-Revocation": "unsupported"]))
        #expect(try await fixture.session.signOut() == .unsupported)
        #expect(await fixture.store.stored == nil)
    }

    /// RFC 7009 §2.2.1: the provider failed, the client keeps its token and may retry.
    @Test func aFailedRevocationKeepsTheTokens() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let server = try await fixture.signedIn()
        await server.script(
            "/v1/revoke",
            .answer(
                status: 503, body: #"{"error":"temporarily_unavailable"}"#,
                headers: ["Retry-After": "3"]))
        await #expect(throws: TokenSwapClientError.temporarilyUnavailable(retryAfterSeconds: 3)) {
            try await fixture.session.signOut()
        }
        #expect(await fixture.store.stored?.revealed == "refresh-1")
        #expect(await fixture.session.status() == .signedIn)
        #expect(try await fixture.session.signOut(revoking: false) == nil)
        #expect(await fixture.store.stored == nil)
        #expect(await server.count("/v1/revoke") == 1)
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
