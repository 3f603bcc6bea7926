import Foundation
import Testing

@testable import TokenSwapClient

/// The grant's lifetime (CONTRACT §14): `refresh_token_expires_in` read, kept with the
/// credentials, announced once ahead of the end, and the end of the session after it.
@Suite struct TokenSessionGrantLifetimeTests {
    static let day = 86400

    @Test(
        arguments: [
            (#"{"access_token":"a","refresh_token_expires_in":15552000}"#, 15_552_000),
            (#"{"access_token":"a","refresh_token_expires_in":"120"}"#, 120),
            (#"{"access_token":"a","refresh_token_expires_in":0}"#, 0),
            (#"{"access_token":"a","refresh_token_expires_in":-1}"#, nil),
            (#"{"access_token":"a","refresh_token_expires_in":"soon"}"#, nil),
            (#"{"access_token":"a","refresh_token_expires_in":1e300}"#, nil),
            (#"{"access_token":"a"}"#, nil),
        ] as [(String, Int?)])
    func refreshTokenExpiresInIsRead(json: String, seconds: Int?) throws {
        #expect(try TokenAnswer(json: Data(json.utf8)).refreshTokenExpiresInSeconds == seconds)
    }

    /// Counted on the wall clock from the answer's arrival, stored with the token, read
    /// back by a relaunched session.
    @Test func theGrantsEndIsKeptWithTheCredentials() async throws {
        let server = FakeTokenSwap()
        await server.setRefreshTokenExpiresIn(30 * Self.day)
        let store = MemoryCredentialStore()
        let clock = ManualClock()
        let session = TokenSession(
            backend: try TokenSessionDPoPTests.backend(server), store: store, clock: clock)
        try await session.signIn(code: "c")
        let end = Int(ManualClock.wallStart) + 30 * Self.day
        #expect(try await store.loadCredentials()?.grantExpiresAtEpochSeconds == end)
        #expect(await session.grantExpiresAt() == Date(timeIntervalSince1970: Double(end)))
        clock.advance(100)
        #expect(await session.grantTimeLeftSeconds() == Double(30 * Self.day - 100))

        // A refresh answer says again; the newest word counts.
        await server.setRefreshTokenExpiresIn(10 * Self.day)
        clock.advance(3600)
        #expect(try await session.accessToken() == "access-2")
        let renewed = Int(ManualClock.wallStart) + 3700 + 10 * Self.day
        #expect(try await store.loadCredentials()?.grantExpiresAtEpochSeconds == renewed)

        let relaunched = TokenSession(
            backend: try TokenSessionDPoPTests.backend(server), store: store, clock: clock)
        #expect(await relaunched.grantExpiresAt() == Date(timeIntervalSince1970: Double(renewed)))
    }

    @Test func withoutALifetimeThereIsNoEnd() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        _ = try await fixture.signedIn()
        #expect(await fixture.session.grantExpiresAt() == nil)
        #expect(await fixture.session.grantTimeLeftSeconds() == nil)
    }

    @Test func theWarningComesOnceAtTheConfiguredWhile() async throws {
        let fixture = try SessionFixture(
            storedRefreshToken: nil,
            configuration: TokenSessionConfiguration(grantEndingWarningSeconds: 1000))
        await fixture.server.setRefreshTokenExpiresIn(5000)
        await fixture.server.setExpiresIn("100000")
        _ = try await fixture.signedIn()
        fixture.clock.advance(3999)  // 1001 s left: not yet
        _ = try await fixture.session.accessToken()
        fixture.clock.advance(2)  // 999 s left
        _ = try await fixture.session.accessToken()
        fixture.clock.advance(500)
        _ = try await fixture.session.accessToken()
        #expect(await fixture.session.status() == .signedIn)
        try await fixture.session.signOut()
        #expect(
            await fixture.events(3) == [
                .signedIn, .grantEndingSoon(timeLeftSeconds: 999), .signedOut(.userRequested),
            ])
    }

    /// A sign-in whose grant is already within the while is told at once.
    @Test func aShortGrantIsAnnouncedAtSignIn() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        await fixture.server.setRefreshTokenExpiresIn(2 * Self.day)
        _ = try await fixture.signedIn()
        #expect(
            await fixture.events(2) == [
                .signedIn, .grantEndingSoon(timeLeftSeconds: Double(2 * Self.day)),
            ])
    }

    @Test func afterTheEndTheSessionSignsOutWithoutAsking() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        await fixture.server.setRefreshTokenExpiresIn(7200)
        let server = try await fixture.signedIn()
        fixture.clock.advance(7200)
        await #expect(throws: TokenSwapClientError.signedOut(.grantExpired)) {
            _ = try await fixture.session.accessToken()
        }
        #expect(await server.count("/v1/refresh") == 0)
        #expect(await fixture.store.stored == nil)
        #expect(await fixture.session.status() == .signedOut(.grantExpired))
        #expect(await fixture.session.grantTimeLeftSeconds() == nil)
    }

    /// At launch, a stored grant that has ended is over before anything is sent.
    @Test func aStoredGrantThatHasEndedIsOverAtLaunch() async throws {
        let store = MemoryCredentialStore(
            credentials: StoredCredentials(
                refreshToken: RedactedToken("refresh-0"),
                grantExpiresAtEpochSeconds: Int(ManualClock.wallStart) - 1))
        let server = FakeTokenSwap()
        let session = TokenSession(
            backend: try TokenSessionDPoPTests.backend(server), store: store, clock: ManualClock())
        #expect(await session.status() == .signedOut(.grantExpired))
        #expect(await server.requests.isEmpty)
        #expect(try await store.loadCredentials() == nil)
    }

    @Test func storedCredentialsReadTheirOwnTextAndAnOldTokenAlone() throws {
        let full = StoredCredentials(
            refreshToken: RedactedToken("tok"), grantExpiresAtEpochSeconds: 1_815_552_000,
            dpopKeyThumbprint: "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
        #expect(
            full.encoded
                == "tok\ngrant-expires-at 1815552000\ndpop-jkt 0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I\n"
        )
        #expect(StoredCredentials(decoding: full.encoded) == full)
        #expect(
            StoredCredentials(decoding: "tok\n")
                == StoredCredentials(refreshToken: RedactedToken("tok")))
        #expect(
            StoredCredentials(decoding: " tok ")
                == StoredCredentials(refreshToken: RedactedToken("tok")))
        #expect(StoredCredentials(decoding: "") == nil)
        #expect(StoredCredentials(decoding: "\ngrant-expires-at 5\n") == nil)
    }

    /// A damaged line costs what it said, never the token.
    @Test(
        arguments: [
            "tok\ngrant-expires-at soon\n", "tok\ngrant-expires-at -5\n",
            "tok\ngrant-expires-at 99999999999999999999999\n", "tok\ndpop-jkt short\n",
            "tok\ndpop-jkt " + String(repeating: "!", count: 43) + "\n", "tok\nsomething else\n",
            "tok\ngrant-expires-at\n",
        ])
    func aDamagedLineIsSkipped(text: String) throws {
        let read = try #require(StoredCredentials(decoding: text))
        #expect(read == StoredCredentials(refreshToken: RedactedToken("tok")))
    }

    @Test func theFileStoreKeepsTheGrantAndTheBinding() async throws {
        let path = NSTemporaryDirectory() + "tokenswap-grant-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let credentials = StoredCredentials(
            refreshToken: RedactedToken("tok"), grantExpiresAtEpochSeconds: 42,
            dpopKeyThumbprint: DPoPKey.generate().thumbprint)
        try await FileCredentialStore(path: path).save(credentials)
        #expect(try await FileCredentialStore(path: path).loadCredentials() == credentials)
        #expect(try await FileCredentialStore(path: path).load()?.revealed == "tok")
    }
}
