import TokenSwapClient

/// A credential store that writes down every operation, can fail on demand, and can
/// hold a save at a gate, so a test sees the order of "stored" and "handed out".
actor RecordingStore: CredentialStore {
    private(set) var stored: RedactedToken?
    private(set) var log: [String] = []
    var loadFails = false
    var saveFails = false
    private var saveGate: Gate?
    /// Opened when a save reaches the store (before it is held at `saveGate`).
    let saveEntered = Gate()

    init(_ refreshToken: String? = nil) {
        stored = refreshToken.map(RedactedToken.init)
    }

    func setLoadFails(_ fails: Bool) { loadFails = fails }
    func setSaveFails(_ fails: Bool) { saveFails = fails }
    func holdSaves(at gate: Gate) { saveGate = gate }
    func note(_ line: String) { log.append(line) }

    func load() async throws -> RedactedToken? {
        if loadFails { throw CredentialStoreError.unavailable(status: -25308) }
        return stored
    }

    func save(_ refreshToken: RedactedToken) async throws {
        await saveEntered.open()
        if let saveGate { await saveGate.wait() }
        if saveFails { throw CredentialStoreError.unavailable(status: 28) }
        stored = refreshToken
        log.append("saved \(refreshToken.revealed)")
    }

    func remove() async throws {
        stored = nil
        log.append("removed")
    }
}
