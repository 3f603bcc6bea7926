import Foundation
import Testing
import TokenSwapClient

/// The client kit against a stub provider behind the real binary (issue 18): what its
/// sign-out revokes at a GitHub-style provider, and what a provider's absurd
/// `Retry-After` does to a session.
@Suite(.serialized, .resourceClass(.processes)) struct TokenSwapClientProviderStubTests {
    static func session(_ stack: StubStack, store: any CredentialStore, skewSeconds: Double)
        throws -> TokenSession
    {
        let base = try #require(URL(string: "http://127.0.0.1:\(stack.port)"))
        return TokenSession(
            backend: TokenSwapBackend(endpoints: try TokenSwapEndpoints(baseURL: base)),
            store: store,
            configuration: TokenSessionConfiguration(refreshSkewSeconds: skewSeconds))
    }

    /// GitHub revokes access tokens only (CONTRACT §8): a sign-out that revoked the
    /// refresh token alone left the user signed in at GitHub. Both are revoked now.
    @Test func signOutRevokesTheAccessTokenAtAGitHubStyleProvider() async throws {
        let stub = try await ProviderStub.start()
        let stack = try await StubStack.start(
            stub: stub,
            extra: [
                "TOKENSWAP_SPOTIFY_REVOCATION_STYLE": "github",
                "TOKENSWAP_SPOTIFY_REVOCATION_URL": stub.tokenURL(
                    "/applications/{client_id}/token"),
            ])
        let revokePath = "/applications/\(Deployment.clientID)/token"
        try await stub.answerTokens([
            "access_token": "gho-kit-access", "token_type": "bearer", "expires_in": 28800,
            "refresh_token": "ghr-kit-refresh",
        ])
        try await stub.answer(status: 204, body: "", path: revokePath)
        let store = MemoryCredentialStore()
        let session = try Self.session(stack, store: store, skewSeconds: 60)
        try await session.signIn(code: "code-kit-github")

        #expect(try await session.signOut() == .revoked)
        // Two calls: the sealed refresh token goes upstream as any other value does (GitHub
        // calls it invalid; CONTRACT §8: the same call for every token, no oracle), then
        // the access token, which GitHub revokes. The provider's refresh token never leaves
        // the seal.
        let revocations = try await stub.received().filter { $0.target == revokePath }
        #expect(revocations.count == 2)
        #expect(revocations.allSatisfy { $0.method == "DELETE" })
        let sent = revocations.compactMap { $0.json?["access_token"] as? String }
        #expect(sent.last == "gho-kit-access")
        #expect(!sent.contains("ghr-kit-refresh"))
        #expect(try await store.load() == nil)
        #expect(
            try await stack.finish(secrets: [
                "gho-kit-access", "ghr-kit-refresh", "code-kit-github",
            ])
                == 0)
    }

    /// Issue 18 item 5: `Retry-After: 99999999999999999999` from the provider stopped the
    /// session refreshing for good, and printing its event trapped.
    @Test func aProvidersHugeRetryAfterHoldsTheSessionAnHourAtMost() async throws {
        let stack = try await StubStack.start()
        try await stack.stub.answerTokens([
            "access_token": "at-kit-huge", "token_type": "Bearer", "expires_in": 3600,
            "refresh_token": "rt-kit-huge",
        ])
        // The whole lifetime as skew: the first call refreshes ahead of expiry.
        let session = try Self.session(stack, store: MemoryCredentialStore(), skewSeconds: 3600)
        // Subscribed first: a stream has the events from its subscription on.
        var events = session.events.makeAsyncIterator()
        try await session.signIn(code: "code-kit-huge")
        try await stack.stub.answer(
            status: 429, headers: [("Retry-After", "99999999999999999999")],
            body: #"{"error":"rate_limited"}"#)

        // The refresh waits; the access token, not yet expired, is still handed out.
        #expect(try await session.accessToken() == "at-kit-huge")
        #expect(await events.next() == .signedIn)
        let failure = await events.next()
        guard case .transientFailure(let transient) = failure else {
            Issue.record("expected a transient failure, got \(String(describing: failure))")
            return
        }
        #expect(transient.kind == .throttled)
        #expect(transient.retryAfterSeconds == 3600)
        #expect("\(transient)" == "throttled, retry after 3600 s")
        #expect(
            try await stack.finish(secrets: ["at-kit-huge", "rt-kit-huge", "code-kit-huge"]) == 0)
    }
}
