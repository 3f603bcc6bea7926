import Foundation
import Testing
import TokenSwapClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The 0600 file store: round trip, mode, atomic replace, and "unavailable" vs "empty".
@Suite struct FileCredentialStoreTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "tokenswap-client-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: false)
    }

    @Test func savesLoadsReplacesAndRemoves() async throws {
        let store = FileCredentialStore(path: directory + "/session")
        #expect(try await store.load() == nil)
        try await store.save(RedactedToken("first"))
        #expect(try await store.load()?.revealed == "first")
        try await store.save(RedactedToken("second"))
        #expect(try await store.load()?.revealed == "second")
        // Nothing but the token file is left beside it (no temporary files).
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["session"])
        try await store.remove()
        #expect(try await store.load() == nil)
        try await store.remove()
    }

    @Test func theFileIsOwnerOnly() async throws {
        let path = directory + "/session"
        let store = FileCredentialStore(path: path)
        let old = umask(0)
        defer { umask(old) }
        try await store.save(RedactedToken("token"))
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        // A replace keeps the mode, even over a file someone made readable.
        #expect(chmod(path, 0o644) == 0)
        try await store.save(RedactedToken("token-2"))
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test func anUnreadableStoreIsUnavailableNotEmpty() async throws {
        // A directory where the file should be: open(2) succeeds, read(2) fails (EISDIR).
        let path = directory + "/session"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let store = FileCredentialStore(path: path)
        await #expect(throws: CredentialStoreError.unavailable(status: EISDIR)) {
            try await store.load()
        }
        await #expect(throws: CredentialStoreError.self) {
            try await store.save(RedactedToken("t"))
        }
    }

    @Test func aMissingDirectoryCannotBeSavedTo() async throws {
        let store = FileCredentialStore(path: directory + "/missing/session")
        await #expect(throws: CredentialStoreError.unavailable(status: ENOENT)) {
            try await store.save(RedactedToken("t"))
        }
        #expect(try await store.load() == nil)
    }

    @Test func aSessionOverTheFileStoreSurvivesARestart() async throws {
        let path = directory + "/session"
        let server = FakeTokenSwap()
        let endpoints = try TokenSwapEndpoints(baseURL: try #require(URL(string: "https://t.test")))
        let first = TokenSession(
            service: TokenSwapService(endpoints: endpoints, transport: server),
            store: FileCredentialStore(path: path), clock: ManualClock())
        try await first.signIn(code: "c")
        let relaunched = TokenSession(
            service: TokenSwapService(endpoints: endpoints, transport: server),
            store: FileCredentialStore(path: path), clock: ManualClock())
        #expect(try await relaunched.accessToken() == "access-2")
        #expect(try await FileCredentialStore(path: path).load()?.revealed == "refresh-2")
    }

    @Test func theMemoryStoreRoundTrips() async throws {
        let store = MemoryCredentialStore()
        #expect(try await store.load() == nil)
        try await store.save(RedactedToken("a"))
        #expect(try await store.load()?.revealed == "a")
        try await store.remove()
        #expect(try await store.load() == nil)
    }
}
