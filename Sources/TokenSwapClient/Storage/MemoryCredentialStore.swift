/// A store that forgets at exit: for tests, previews, and apps that sign in every launch.
public actor MemoryCredentialStore: CredentialStore {
    private var stored: RedactedToken?

    public init(_ refreshToken: RedactedToken? = nil) {
        stored = refreshToken
    }

    public func load() async throws -> RedactedToken? {
        stored
    }

    public func save(_ refreshToken: RedactedToken) async throws {
        stored = refreshToken
    }

    public func remove() async throws {
        stored = nil
    }
}
