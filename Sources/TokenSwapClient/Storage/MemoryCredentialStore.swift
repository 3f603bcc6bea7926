/// A store that forgets at exit: for tests, previews, and apps that sign in every launch.
/// Its DPoP key (`dpopKeyStore`) is kept in memory too.
public actor MemoryCredentialStore: CredentialStore {
    private var stored: StoredCredentials?
    public nonisolated let dpopKeyStore: (any DPoPKeyStore)? = MemoryDPoPKeyStore()

    public init(_ refreshToken: RedactedToken? = nil) {
        stored = refreshToken.map { StoredCredentials(refreshToken: $0) }
    }

    public init(credentials: StoredCredentials?) {
        stored = credentials
    }

    public func load() async throws -> RedactedToken? {
        stored?.refreshToken
    }

    public func save(_ refreshToken: RedactedToken) async throws {
        stored = StoredCredentials(refreshToken: refreshToken)
    }

    public func remove() async throws {
        stored = nil
    }

    public func loadCredentials() async throws -> StoredCredentials? {
        stored
    }

    public func save(_ credentials: StoredCredentials) async throws {
        stored = credentials
    }
}
