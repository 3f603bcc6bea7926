import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A software P-256 DPoP key in a file only its owner can read (mode 0600), beside a
/// `FileCredentialStore`'s file (`<path>.dpop-key` there): for Linux devices and
/// command-line programs, where there is no keychain. The file holds the private scalar,
/// base64url, on one line; it is written as the credentials are (`AtomicFile`: atomic,
/// fsynced, symlinks refused). A file that does not hold a P-256 key reads as
/// `unavailable` (`EILSEQ`), not as "no key": a damaged key must not quietly become a
/// new one while a token is bound to the old.
public struct FileDPoPKeyStore: DPoPKeyStore {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func load() async throws -> DPoPKey? {
        guard let bytes = try file.read() else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        guard let raw = Base64URL.decode(text), raw.count == 32,
            let key = try? P256.Signing.PrivateKey(rawRepresentation: raw)
        else { throw CredentialStoreError.unavailable(status: EILSEQ) }
        return DPoPKey(key)
    }

    public func create() async throws -> DPoPKey {
        let key = P256.Signing.PrivateKey()
        try file.write(Array((Base64URL.encode(key.rawRepresentation) + "\n").utf8))
        return DPoPKey(key)
    }

    public func remove() async throws {
        try file.remove()
    }

    private var file: AtomicFile { AtomicFile(path: path) }
}
