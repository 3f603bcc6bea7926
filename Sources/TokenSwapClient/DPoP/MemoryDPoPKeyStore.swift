/// A DPoP key store that forgets at exit: for tests, previews, and apps whose credentials
/// live in a `MemoryCredentialStore`.
public actor MemoryDPoPKeyStore: DPoPKeyStore {
    private var key: DPoPKey?

    public init(_ key: DPoPKey? = nil) {
        self.key = key
    }

    public func load() async throws -> DPoPKey? {
        key
    }

    public func create() async throws -> DPoPKey {
        let made = DPoPKey.generate()
        key = made
        return made
    }

    public func remove() async throws {
        key = nil
    }
}
