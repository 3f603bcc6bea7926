extension ServiceConfiguration {
    /// One line for `check-config`: where revoked grants live and whether a restart keeps
    /// them (CONTRACT §14: without a store, revocations live in one copy's memory and end
    /// with it).
    package var revocationsSummary: String {
        "revocations: in this copy's memory (kept up to \(families.retentionDays) days while it "
            + "runs): other copies do not see them and a restart forgets them; set "
            + "TOKENSWAP_STATE_URL to share them and keep them across restarts"
    }
}
