extension ServiceConfiguration {
    /// One line for `check-config`: where revoked grants live and whether a restart keeps
    /// them (CONTRACT §14: without a store, revocations live in one copy's memory and end
    /// with it; with one, every copy sharing it sees them).
    package var revocationsSummary: String {
        let days = families.retentionDays
        guard let state else {
            return "revocations: in this copy's memory (kept up to \(days) days while it "
                + "runs): other copies do not see them and a restart forgets them; set "
                + "TOKENSWAP_STATE_URL to share them and keep them across restarts"
        }
        let whileDown =
            switch state.failure {
            case .open:
                "while the store is down, a revocation is kept only in the memory of the copy "
                    + "that took it"
            case .closed:
                "while the store is down, revocations and refreshes are refused with 503"
            }
        return "revocations: in the shared store \(state.location) for \(days) days: every "
            + "copy sharing it refuses a revoked grant, and a restart keeps them; \(whileDown)"
    }
}
