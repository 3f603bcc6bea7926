import Foundation
import Testing
import TokenSwapClient

/// The client kit's sign-out with revocation and its introspection (CONTRACT §8) against
/// the real `tokenswap serve --sandbox`, which plays the provider's revocation and
/// introspection endpoints.
@Suite(.serialized, .resourceClass(.processes)) struct TokenSwapClientLifecycleTests {
    @Test func introspectThenSignOutRevokesAndTheGrantIsDead() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let store = MemoryCredentialStore()
        let session = try TokenSwapClientSandboxTests.session(server, store: store, skewSeconds: 60)
        try await session.signIn(code: try await SandboxFlowTests.authorize(server.port))
        let access = try await session.accessToken()
        let refresh = try #require(try await store.load())

        let introspection = try await session.introspect()
        #expect(introspection.active)
        #expect(introspection.scope == "sandbox")
        #expect((introspection.expiresAtEpochSeconds ?? 0) > Int(Date().timeIntervalSince1970))

        #expect(try await session.signOut() == .revoked)
        #expect(try await store.load() == nil)
        #expect(await session.status() == .signedOut(.userRequested))
        // Revoking the refresh token ended the grant: it and its access token are dead.
        do {
            _ = try await session.backend.refresh(refresh)
            Issue.record("a revoked refresh token refreshed")
        } catch TokenSwapClientError.rejected(let answer) {
            #expect(answer.status == 400)
            #expect(answer.error == "invalid_grant")
        }
        #expect(
            try await session.backend.introspect(RedactedToken(access))
                == Introspection(active: false))
        #expect(try await server.stop() == 0)
        expectNoSecrets(in: [server.output], [access, refresh.revealed])
    }

    /// RFC 7009 §2.2.1: the provider failed (the sandbox's planted 500 answers 503 with
    /// Retry-After 30): the tokens are kept, and the app may sign out without revoking.
    @Test func aRevocationTheProviderFailsKeepsTheTokens() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let store = MemoryCredentialStore()
        let session = try TokenSwapClientSandboxTests.session(server, store: store, skewSeconds: 60)
        try await session.signIn(code: "sandbox-refresh-500")
        let stored = try await store.load()
        await #expect(throws: TokenSwapClientError.temporarilyUnavailable(retryAfterSeconds: 30)) {
            try await session.signOut()
        }
        #expect(try await store.load() == stored)
        #expect(await session.status() == .signedIn)
        #expect(try await session.signOut(revoking: false) == nil)
        #expect(try await store.load() == nil)
        #expect(try await server.stop() == 0)
    }

    @Test func aProviderWithoutRevocationSaysUnsupported() async throws {
        let server = try await TokenSwapProcess.serve(
            ["--sandbox"], environment: ["TOKENSWAP_SPOTIFY_REVOCATION_STYLE": "none"])
        let store = MemoryCredentialStore()
        let session = try TokenSwapClientSandboxTests.session(server, store: store, skewSeconds: 60)
        try await session.signIn(code: try await SandboxFlowTests.authorize(server.port))
        #expect(try await session.signOut() == .unsupported)
        #expect(try await store.load() == nil)
        #expect(try await server.stop() == 0)
    }
}
