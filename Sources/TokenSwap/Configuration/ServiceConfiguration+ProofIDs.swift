extension ServiceConfiguration {
    /// One line for `check-config`: where DPoP proof ids are kept, how many, for how long,
    /// and what happens when there is no room (CONTRACT §13: a live id is never dropped to
    /// make room, so new proofs are refused with 503 until old ones expire); nil when
    /// every provider's DPoP is `off`.
    package var proofIDsSummary: String? {
        guard providers.contains(where: { $0.dpopMode != .off }) else { return nil }
        let window = DPoPProofChecker(maxAgeSeconds: dpop.maxAgeSeconds, nonces: nil)
            .replayWindow.components.seconds
        let memory =
            "in this copy's memory, up to \(dpop.proofIDs) (TOKENSWAP_DPOP_PROOF_IDS), "
            + "\(ProofIDTable(capacity: dpop.proofIDs).clientShare) per client"
        guard let state else {
            return "DPoP proof ids: \(memory), each kept \(window) s; when full, new proofs "
                + "are answered 503 with Retry-After until the oldest expire"
        }
        let whileDown =
            switch state.failure {
            case .open: "while the store is down, \(memory) (503 when full)"
            case .closed: "while the store is down, proofs are answered 503"
            }
        return "DPoP proof ids: in the shared store \(state.location), each kept \(window) s "
            + "(keep its maxmemory-policy noeviction: an evicted id is a replayable proof); "
            + whileDown
    }
}
