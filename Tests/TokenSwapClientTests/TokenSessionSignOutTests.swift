import Foundation
import Testing

@testable import TokenSwapClient

/// Signing out (CONTRACT §8): both tokens are revoked, and no refresh goes out while the
/// revocation is under way (its rotated token would arrive after the revocation and be
/// dropped unrevoked, or be stored and then wiped unrevoked).
@Suite struct TokenSessionSignOutTests {
    @Test func signOutRevokesBothTokensAndWipes() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let server = try await fixture.signedIn()
        #expect(try await fixture.session.signOut() == .revoked)
        // The refresh token ends the grant at RFC 7009 providers; the access token is the
        // only one GitHub-style providers can revoke.
        #expect(await server.revoked == ["refresh-1 refresh_token", "access-1 access_token"])
        #expect(await fixture.store.stored == nil)
        #expect(await fixture.session.status() == .signedOut(.userRequested))
        #expect(await fixture.events(2) == [.signedIn, .signedOut(.userRequested)])
    }

    /// After a relaunch only the refresh token is known; sign-out does not refresh to get
    /// an access token just to revoke it.
    @Test func afterARelaunchOnlyTheRefreshTokenIsRevoked() async throws {
        let fixture = try SessionFixture(storedRefreshToken: "refresh-0")
        #expect(try await fixture.session.signOut() == .revoked)
        #expect(await fixture.server.revoked == ["refresh-0 refresh_token"])
        #expect(await fixture.server.count("/v1/refresh") == 0)
        #expect(await fixture.store.stored == nil)
    }

    @Test func aRefreshAskedForDuringTheRevocationNeverGoesOut() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let server = try await fixture.signedIn()
        // access-1 has expired: the next caller needs a refresh.
        fixture.clock.advance(3600)
        let revocation = Gate()
        await server.holdRevocations(at: revocation)
        let signOut = Task { try await fixture.session.signOut() }
        await waitUntil { await server.count("/v1/revoke") == 1 }

        // The caller arrives while the revocation is held: before the fix it refreshed,
        // rotating refresh-1 upstream into a token nobody revoked.
        let caller = Task { try await fixture.session.accessToken() }
        await waitUntil {
            let refreshed = await server.count("/v1/refresh") > 0
            let waiting = await fixture.session.callersAwaitingSignOut > 0
            return refreshed || waiting
        }
        await revocation.open()

        #expect(try await signOut.value == .revoked)
        await #expect(throws: TokenSwapClientError.signedOut(.userRequested)) {
            try await caller.value
        }
        #expect(await server.count("/v1/refresh") == 0)
        #expect(await server.revoked == ["refresh-1 refresh_token", "access-1 access_token"])
        #expect(await fixture.store.stored == nil)
        #expect(await fixture.store.log == ["saved refresh-1", "removed"])
    }

    /// A refresh already under way when sign-out begins is waited for, and the tokens it
    /// brought are the ones revoked; its caller gets no token that is being revoked.
    @Test func aRefreshUnderWayIsWaitedForAndItsTokensRevoked() async throws {
        let fixture = try SessionFixture(storedRefreshToken: "refresh-0")
        let refresh = Gate()
        await fixture.server.holdRefreshes(at: refresh)
        let caller = Task { try await fixture.session.accessToken() }
        await waitUntil { await fixture.server.count("/v1/refresh") == 1 }
        let signOut = Task { try await fixture.session.signOut() }
        await waitUntil { await fixture.session.isSigningOut }
        // Sign-out waits for the refresh: nothing is revoked while its answer is out.
        #expect(await fixture.server.count("/v1/revoke") == 0)
        await refresh.open()

        #expect(try await signOut.value == .revoked)
        await #expect(throws: TokenSwapClientError.signedOut(.userRequested)) {
            try await caller.value
        }
        #expect(
            await fixture.server.revoked == ["refresh-1 refresh_token", "access-1 access_token"])
        #expect(await fixture.store.log == ["saved refresh-1", "removed"])
        #expect(await fixture.server.count("/v1/refresh") == 1)
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

    /// RFC 7009 §2.2.1: when the second revocation fails the tokens are kept, the session
    /// works again (refreshes included), and a retried sign-out revokes both once more.
    @Test func aFailedRevocationOfTheAccessTokenKeepsTheSessionUsable() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let server = try await fixture.signedIn()
        await server.script(
            "/v1/revoke", .answer(status: 200, body: "{}"),
            .answer(
                status: 503, body: #"{"error":"temporarily_unavailable"}"#,
                headers: ["Retry-After": "3"]))
        await #expect(throws: TokenSwapClientError.temporarilyUnavailable(retryAfterSeconds: 3)) {
            try await fixture.session.signOut()
        }
        #expect(await fixture.session.status() == .signedIn)
        #expect(await fixture.store.stored?.revealed == "refresh-1")
        #expect(try await fixture.session.accessToken() == "access-1")
        fixture.clock.advance(3600)
        #expect(try await fixture.session.accessToken() == "access-2")
        #expect(try await fixture.session.signOut() == .revoked)
        #expect(
            await server.revoked.suffix(2) == ["refresh-2 refresh_token", "access-2 access_token"])
        #expect(await fixture.store.stored == nil)
    }

    /// A sign-in that comes while a sign-out is under way waits for it, so the sign-out
    /// cannot wipe the new session.
    @Test func aSignInDuringASignOutComesAfterIt() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let server = try await fixture.signedIn()
        let revocation = Gate()
        await server.holdRevocations(at: revocation)
        let signOut = Task { try await fixture.session.signOut() }
        await waitUntil { await server.count("/v1/revoke") == 1 }
        let signIn = Task {
            try await fixture.session.signIn(
                with: TokenAnswer(
                    accessToken: RedactedToken("new-user"),
                    refreshToken: RedactedToken("new-refresh"), expiresInSeconds: 3600))
        }
        await waitUntil {
            let signedIn = await fixture.store.stored?.revealed == "new-refresh"
            let waiting = await fixture.session.callersAwaitingSignOut > 0
            return signedIn || waiting
        }
        await revocation.open()
        _ = try await signOut.value
        try await signIn.value
        #expect(try await fixture.session.accessToken() == "new-user")
        #expect(await fixture.store.stored?.revealed == "new-refresh")
        #expect(await server.revoked == ["refresh-1 refresh_token", "access-1 access_token"])
    }

    @Test func aProviderWithoutRevocationIsUnsupported() async throws {
        for header in ["unsupported", "broker"] {
            let fixture = try SessionFixture(storedRefreshToken: nil)
            let server = try await fixture.signedIn()
            for _ in 0..<2 {
                await server.script(
                    "/v1/revoke",
                    .answer(status: 200, body: "{}", headers: ["Tokenswap-Revocation": header]))
            }
            #expect(try await fixture.session.signOut() == .unsupported)
            #expect(await fixture.store.stored == nil)
        }
    }
}
