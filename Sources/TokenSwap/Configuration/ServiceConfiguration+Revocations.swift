extension ServiceConfiguration {
    /// One line for `check-config`: where revoked grants live, how many a copy keeps in
    /// its memory and whether a restart keeps them (CONTRACT §14: without a store,
    /// revocations live in one copy's memory and end with it, at most a fixed number of
    /// them, the oldest dropped first; with one, every copy sharing it sees them).
    package var revocationsSummary: String {
        let days = families.retentionDays
        let capacity = Self.grouped(MemoryStateStore.defaultRevocationCapacity)
        guard let state else {
            return "revocations: in this copy's memory, at most \(capacity) (the oldest "
                + "dropped first), each kept up to \(days) days while the copy runs: they "
                + "end with it (a restart forgets them) and other copies do not see them; set "
                + "TOKENSWAP_STATE_URL to share them and keep them across restarts"
        }
        let whileDown =
            switch state.failure {
            case .open:
                "while the store is down, a revocation is kept only in the memory of the copy "
                    + "that took it (at most \(capacity), the oldest dropped first) and ends "
                    + "with it"
            case .closed:
                "while the store is down, revocations and refreshes are refused with 503"
            }
        return "revocations: in the shared store \(state.location) for \(days) days: every "
            + "copy sharing it refuses a revoked grant, and a restart keeps them; \(whileDown)"
    }

    /// `number` with a comma between groups of three digits (100,000), as the docs write it.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var text = number < 0 ? "-" : ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
