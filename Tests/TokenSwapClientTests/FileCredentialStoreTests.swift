import Foundation
import Testing
import TokenSwapClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The 0600 file store: round trip, mode, atomic replace, "unavailable" vs "empty", no
/// symlink followed, no token left behind in a temporary file.
@Suite final class FileCredentialStoreTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "tokenswap-client-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: false)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    @Test func savesLoadsReplacesAndRemoves() async throws {
        let store = FileCredentialStore(path: directory + "/session")
        #expect(try await store.load() == nil)
        try await store.save(RedactedToken("first"))
        #expect(try await store.load()?.revealed == "first")
        try await store.save(RedactedToken("second"))
        #expect(try await store.load()?.revealed == "second")
        #expect(try String(contentsOfFile: directory + "/session", encoding: .utf8) == "second\n")
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

    /// Issue 18 item 12: `load` followed a symlink at the path (whoever could plant one
    /// chose the token the app trusts) and `save` replaced it. Both refuse it now; `remove`
    /// unlinks the link, never its target.
    @Test func aSymlinkAtThePathIsRefusedNotFollowed() async throws {
        let target = directory + "/elsewhere"
        try "planted\n".write(toFile: target, atomically: false, encoding: .utf8)
        let path = directory + "/session"
        #expect(symlink(target, path) == 0)
        let store = FileCredentialStore(path: path)
        await #expect(throws: CredentialStoreError.unavailable(status: ELOOP)) {
            try await store.load()
        }
        await #expect(throws: CredentialStoreError.unavailable(status: ELOOP)) {
            try await store.save(RedactedToken("mine"))
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "planted\n")
        try await store.remove()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "planted\n")
        #expect(try await store.load() == nil)
        // A dangling link is refused alike.
        #expect(symlink(directory + "/nowhere", path) == 0)
        await #expect(throws: CredentialStoreError.unavailable(status: ELOOP)) {
            try await store.load()
        }
    }

    /// Issue 18 item 12: a crash between writing the temporary file and renaming it left
    /// a token in `<name>.tmp-<n>` for good. `load` (the first thing after a relaunch)
    /// removes the store's own temporary files, and nothing else.
    @Test func temporaryFilesACrashLeftAreRemovedAtLoad() async throws {
        let store = FileCredentialStore(path: directory + "/session")
        try await store.save(RedactedToken("current"))
        let elsewhere = directory + "/elsewhere"
        try "not the store's\n".write(toFile: elsewhere, atomically: false, encoding: .utf8)
        for name in ["session.tmp-1234567", "session.tmp-0", "session.tmp-4294967295"] {
            try "stale-token\n".write(
                toFile: directory + "/" + name, atomically: false, encoding: .utf8)
        }
        #expect(symlink(elsewhere, directory + "/session.tmp-42") == 0)
        let unrelated = [
            "elsewhere", "session.tmp-notes", "session.tmp-", "session.tmp-12a", "other.tmp-123",
            "session.bak", "xsession.tmp-1",
        ]
        for name in unrelated where name != "elsewhere" {
            try "keep\n".write(toFile: directory + "/" + name, atomically: false, encoding: .utf8)
        }

        #expect(try await store.load()?.revealed == "current")
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: directory))
                == Set(unrelated + ["session"]))
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == "not the store's\n")

        // Also when the crash came before the first token file was ever renamed in.
        let fresh = FileCredentialStore(path: directory + "/fresh")
        try "stale-token\n".write(
            toFile: directory + "/fresh.tmp-7", atomically: false, encoding: .utf8)
        #expect(try await fresh.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: directory + "/fresh.tmp-7"))
    }

    @Test func aSessionOverTheFileStoreSurvivesARestart() async throws {
        let path = directory + "/session"
        let server = FakeTokenSwap()
        let endpoints = try TokenSwapEndpoints(baseURL: try #require(URL(string: "https://t.test")))
        let first = TokenSession(
            backend: TokenSwapBackend(endpoints: endpoints, transport: server),
            store: FileCredentialStore(path: path), clock: ManualClock())
        try await first.signIn(code: "c")
        let relaunched = TokenSession(
            backend: TokenSwapBackend(endpoints: endpoints, transport: server),
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
