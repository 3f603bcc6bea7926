import Foundation
import Testing

@testable import TokenSwapClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A session's DPoP key (CONTRACT §13): made at sign-in, proving every swap, refresh and
/// device request, kept beside the credentials, and the end of the session when it is gone.
@Suite final class TokenSessionDPoPTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "tokenswap-dpop-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: false)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The proofs of the requests to `path`, in order.
    private func proofs(_ server: FakeTokenSwap, _ path: String) async throws -> [DecodedProof] {
        try await server.requests.filter { $0.path == path }.map {
            try DecodedProof(try #require($0.dpop))
        }
    }

    @Test func swapRefreshAndDeviceRequestsAreProvedByTheSessionsOneKey() async throws {
        let keys = MemoryDPoPKeyStore()
        let fixture = try SessionFixture(storedRefreshToken: nil, dpop: .keyStore(keys))
        let server = try await fixture.signedIn()
        let key = try #require(try await keys.load())
        fixture.clock.advance(3600)
        #expect(try await fixture.session.accessToken() == "access-2")

        await server.script("/v1/device/code", .answer(status: 200, body: DeviceFlowTests.started))
        await server.script("/v1/device/token", DeviceFlowTests.tokens)
        let started = try await fixture.session.deviceFlow.start()
        try await fixture.session.signIn(approving: started)

        var all: [DecodedProof] = []
        for path in ["/v1/swap", "/v1/refresh", "/v1/device/code", "/v1/device/token"] {
            let sent = try await proofs(server, path)
            #expect(sent.count == 1, "\(path)")
            all += sent
        }
        #expect(all.allSatisfy { $0.signatureVerifies })
        #expect(all.allSatisfy { $0.jwk == all[0].jwk })
        #expect(
            all.map(\.htu)
                == ["swap", "refresh", "device/code", "device/token"].map {
                    "https://tokenswap.test/v1/\($0)"
                })
        #expect(Set(all.compactMap(\.jti)).count == 4)
        let x = try #require(all[0].jwk?["x"])
        #expect(key.jwk.contains(x))
        // Revocation needs no proof (CONTRACT §13).
        try await fixture.session.signOut()
        #expect(
            await server.requests.filter { $0.path == "/v1/revoke" }.allSatisfy { $0.dpop == nil })
    }

    @Test func aKeyDeletedWhileTheTokenIsBoundSignsTheSessionOut() async throws {
        let keys = MemoryDPoPKeyStore()
        let fixture = try SessionFixture(storedRefreshToken: nil, dpop: .keyStore(keys))
        let server = try await fixture.signedIn()
        try await keys.remove()
        fixture.clock.advance(3600)
        await #expect(throws: TokenSwapClientError.signedOut(.dpopKeyLost)) {
            _ = try await fixture.session.accessToken()
        }
        #expect(await server.count("/v1/refresh") == 0)
        #expect(await fixture.store.stored == nil)
        #expect(await fixture.session.status() == .signedOut(.dpopKeyLost))
        #expect(await fixture.events(2) == [.signedIn, .signedOut(.dpopKeyLost)])
    }

    @Test func anotherKeyInTheStoreIsNotTheBoundOne() async throws {
        let keys = MemoryDPoPKeyStore()
        let fixture = try SessionFixture(storedRefreshToken: nil, dpop: .keyStore(keys))
        let server = try await fixture.signedIn()
        _ = try await keys.create()
        fixture.clock.advance(3600)
        await #expect(throws: TokenSwapClientError.signedOut(.dpopKeyLost)) {
            _ = try await fixture.session.accessToken()
        }
        #expect(await server.count("/v1/refresh") == 0)
    }

    /// A token from before DPoP (or from `signIn(with:)`) refreshes with a new key, which
    /// binds it; from then on it is bound, and the binding is stored with it.
    @Test func anUnboundTokenAdoptsAKeyAtItsNextRefresh() async throws {
        let store = MemoryCredentialStore(RedactedToken("refresh-0"))
        let server = FakeTokenSwap()
        let session = TokenSession(
            backend: try Self.backend(server), store: store, clock: ManualClock())
        #expect(try await session.accessToken() == "access-1")
        let key = try #require(try await store.dpopKeyStore?.load())
        #expect(try await store.loadCredentials()?.dpopKeyThumbprint == key.thumbprint)
        #expect(try await proofs(server, "/v1/refresh").count == 1)
        // Now bound: without the key it is not sent.
        try await store.dpopKeyStore?.remove()
        await session.invalidateAccessTokenQuietly("access-1")
        #expect(await session.status() == .signedOut(.dpopKeyLost))
        #expect(await server.count("/v1/refresh") == 1)
    }

    @Test func signingOutRemovesTheKeyAndTheNextSignInMakesANewOne() async throws {
        let keys = MemoryDPoPKeyStore()
        let fixture = try SessionFixture(storedRefreshToken: nil, dpop: .keyStore(keys))
        _ = try await fixture.signedIn()
        let first = try #require(try await keys.load())
        try await fixture.session.signOut()
        #expect(try await keys.load() == nil)
        try await fixture.session.signIn(code: "again")
        #expect(try await keys.load() != first)
    }

    @Test func offSendsNoProofAndAStoreOfTheAppsOwnNeedsAKeyStore() async throws {
        let memory = MemoryCredentialStore()
        let server = FakeTokenSwap()
        let off = TokenSession(
            backend: try Self.backend(server), store: memory, dpop: .off, clock: ManualClock())
        try await off.signIn(code: "c")
        #expect(try await memory.dpopKeyStore?.load() == nil)
        // The fixture's recording store has no key store: `.automatic` is none there.
        let fixture = try SessionFixture(storedRefreshToken: nil)
        _ = try await fixture.signedIn()
        // The kit's own stores have one: on by default.
        let byDefault = TokenSession(
            backend: try Self.backend(server), store: MemoryCredentialStore(), clock: ManualClock())
        try await byDefault.signIn(code: "d")
        #expect(await server.requests.map { $0.dpop != nil } == [false, true])
        #expect(await fixture.server.requests.allSatisfy { $0.dpop == nil })
    }

    /// Linux's path: the key in `<credentials>.dpop-key`, 0600, beside the credentials; a
    /// relaunch proves with the same key; without the file the bound session ends.
    @Test func overTheFileStoreTheKeySurvivesARestartAndItsLossEndsTheSession() async throws {
        let path = directory + "/session"
        let server = FakeTokenSwap()
        let first = TokenSession(
            backend: try Self.backend(server), store: FileCredentialStore(path: path),
            clock: ManualClock())
        try await first.signIn(code: "c")
        var info = stat()
        #expect(stat(path + ".dpop-key", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let stored = try #require(try await FileCredentialStore(path: path).loadCredentials())
        let key = try #require(try await FileDPoPKeyStore(path: path + ".dpop-key").load())
        #expect(stored.dpopKeyThumbprint == key.thumbprint)

        let relaunched = TokenSession(
            backend: try Self.backend(server), store: FileCredentialStore(path: path),
            clock: ManualClock())
        #expect(try await relaunched.accessToken() == "access-2")
        let sent = try await proofs(server, "/v1/swap") + proofs(server, "/v1/refresh")
        #expect(sent.count == 2)
        #expect(sent[0].jwk == sent[1].jwk)

        #expect(unlink(path + ".dpop-key") == 0)
        let keyless = TokenSession(
            backend: try Self.backend(server), store: FileCredentialStore(path: path),
            clock: ManualClock())
        await #expect(throws: TokenSwapClientError.signedOut(.dpopKeyLost)) {
            _ = try await keyless.accessToken()
        }
        #expect(await server.count("/v1/refresh") == 1)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// A key store that cannot be read now is transient, like a locked keychain: the tokens
    /// are kept and nothing is sent.
    @Test func aKeyStoreThatCannotBeReadKeepsTheSession() async throws {
        let fixture = try SessionFixture(dpop: .keyStore(FailingKeyStore()))
        await #expect(throws: TokenSwapClientError.storageUnavailable) {
            _ = try await fixture.session.accessToken()
        }
        #expect(await fixture.server.requests.isEmpty)
        #expect(await fixture.session.status() == .signedIn)
        await #expect(throws: TokenSwapClientError.storageUnavailable) {
            try await fixture.session.signIn(code: "c")
        }
    }

    static func backend(_ server: FakeTokenSwap) throws -> TokenSwapBackend {
        TokenSwapBackend(
            endpoints: try TokenSwapEndpoints(
                baseURL: try #require(URL(string: "https://tokenswap.test"))),
            transport: server)
    }
}

/// A key store that always answers "cannot tell now".
struct FailingKeyStore: DPoPKeyStore {
    func load() async throws -> DPoPKey? { throw CredentialStoreError.unavailable(status: -25308) }
    func create() async throws -> DPoPKey { throw CredentialStoreError.unavailable(status: -25308) }
    func remove() async throws { throw CredentialStoreError.unavailable(status: -25308) }
}

extension TokenSession {
    /// `invalidateAccessToken`, for a test that looks at the state afterwards.
    fileprivate func invalidateAccessTokenQuietly(_ token: String) async {
        _ = try? await invalidateAccessToken(token)
    }
}
