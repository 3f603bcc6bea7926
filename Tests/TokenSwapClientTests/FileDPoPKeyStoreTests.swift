import Foundation
import Testing

@testable import TokenSwapClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The 0600 key file (Linux's DPoP key store): the rules of the credentials file.
@Suite final class FileDPoPKeyStoreTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "tokenswap-dpop-key-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: false)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    @Test func aKeyIsMadeOwnerOnlyAndSurvivesAReload() async throws {
        let path = directory + "/session.dpop-key"
        let old = umask(0)
        defer { umask(old) }
        #expect(try await FileDPoPKeyStore(path: path).load() == nil)
        let made = try await FileDPoPKeyStore(path: path).create()
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let reloaded = try #require(try await FileDPoPKeyStore(path: path).load())
        #expect(reloaded == made)
        #expect(reloaded.thumbprint == made.thumbprint)
        // The reloaded key signs proofs that verify with the public key it always had.
        let proof = try DecodedProof(
            DPoPProof.make(
                key: reloaded, method: "POST", url: try #require(URL(string: "https://t.test/")),
                issuedAt: 1, nonce: nil))
        #expect(proof.signatureVerifies)
        #expect(proof.jwk?["x"].map { made.jwk.contains($0) } == true)
        // Nothing but the key file is left beside it (no temporary files).
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory) == ["session.dpop-key"])
        try await FileDPoPKeyStore(path: path).remove()
        #expect(try await FileDPoPKeyStore(path: path).load() == nil)
        try await FileDPoPKeyStore(path: path).remove()
    }

    /// A new key replaces the old one whole, with a rename: the file is never rewritten in
    /// place (its inode changes), and a crash's temporary file is cleared at the next load.
    @Test func aKeyIsReplacedAtomically() async throws {
        let path = directory + "/k"
        let store = FileDPoPKeyStore(path: path)
        let first = try await store.create()
        var before = stat()
        #expect(stat(path, &before) == 0)
        let second = try await store.create()
        var after = stat()
        #expect(stat(path, &after) == 0)
        #expect(before.st_ino != after.st_ino)
        #expect(first != second)
        #expect(try await store.load() == second)
        try "left by a crash\n".write(toFile: path + ".tmp-42", atomically: false, encoding: .utf8)
        _ = try await store.load()
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp-42"))
    }

    @Test func aSymlinkIsRefusedNeverFollowed() async throws {
        let path = directory + "/k"
        let target = directory + "/elsewhere"
        try "not a key\n".write(toFile: target, atomically: false, encoding: .utf8)
        #expect(symlink(target, path) == 0)
        let store = FileDPoPKeyStore(path: path)
        await #expect(throws: CredentialStoreError.unavailable(status: ELOOP)) {
            _ = try await store.load()
        }
        await #expect(throws: CredentialStoreError.unavailable(status: ELOOP)) {
            _ = try await store.create()
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "not a key\n")
    }

    /// A damaged key is not "no key": a new one must not quietly replace a key a token is
    /// bound to.
    @Test(arguments: [
        "", "not base64!", "AAAA", String(repeating: "A", count: 43),
        "_" + String(repeating: "_", count: 42),
    ])
    func aFileThatHoldsNoKeyIsUnavailable(contents: String) async throws {
        let path = directory + "/k"
        try (contents + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        await #expect(throws: CredentialStoreError.unavailable(status: EILSEQ)) {
            _ = try await FileDPoPKeyStore(path: path).load()
        }
    }

    @Test func theMemoryKeyStoreMakesKeepsAndForgets() async throws {
        let store = MemoryDPoPKeyStore()
        #expect(try await store.load() == nil)
        let key = try await store.create()
        #expect(try await store.load() == key)
        try await store.remove()
        #expect(try await store.load() == nil)
    }
}
