/// The refresh token in a file only its owner can read (mode 0600), for command-line
/// programs and Linux devices: the token on the first line, then what the session knows
/// about it (`StoredCredentials`); a file of an earlier version, the token alone, loads.
///
/// Written as `AtomicFile` writes: a temporary file beside it, fsynced, renamed over the
/// old one, the directory fsynced, so after a crash the old token or the new one is there,
/// never half of either, and never readable by others. Temporary files a crash left (each
/// holds a token) are removed by `load`, the first thing a relaunched session does.
///
/// A symlink at the path is refused (`unavailable` with `ELOOP`), never followed: whoever
/// could plant one would choose which token the app trusts, or where it writes its own.
///
/// The session's DPoP key lives beside it, in `<path>.dpop-key` (`FileDPoPKeyStore`).
public struct FileCredentialStore: CredentialStore {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public var dpopKeyStore: (any DPoPKeyStore)? {
        FileDPoPKeyStore(path: path + ".dpop-key")
    }

    public func load() async throws -> RedactedToken? {
        try await loadCredentials()?.refreshToken
    }

    public func save(_ refreshToken: RedactedToken) async throws {
        try await save(StoredCredentials(refreshToken: refreshToken))
    }

    public func remove() async throws {
        try file.remove()
    }

    public func loadCredentials() async throws -> StoredCredentials? {
        guard let bytes = try file.read() else { return nil }
        return StoredCredentials(decoding: String(decoding: bytes, as: UTF8.self))
    }

    public func save(_ credentials: StoredCredentials) async throws {
        try file.write(Array(credentials.encoded.utf8))
    }

    private var file: AtomicFile { AtomicFile(path: path) }
}
