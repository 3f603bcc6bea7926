/// What the replay check of a proof's `jti` found (RFC 9449 §11.1, CONTRACT §13).
enum DPoPReplayVerdict: Sendable, Equatable {
    /// First use within the window: the proof is valid.
    case firstUse
    /// Seen before at this provider: `400 invalid_dpop_proof`, outcome `replayed`.
    case replayed
    /// The store failed (or could not digest the key); the caller answers as for any
    /// store failure (CONTRACT §12).
    case unavailable(StateStoreError)
}

extension DPoPProofChecker {
    /// Records the proof's `jti` at `provider` through §12's store for `replayWindow`, so
    /// a second proof with it is refused on this copy and, with a shared store, on every
    /// copy. The key is a digest of the provider and the `jti` (`StateKey`).
    func recordProofID(
        _ proof: DPoPProof, provider: String, store: any StateStore,
        completion: @escaping @Sendable (DPoPReplayVerdict) -> Void
    ) {
        guard let key = StateKey(.proofID, scope: provider, value: proof.jti) else {
            completion(.unavailable(StateStoreError(operation: "insert", reason: "digest failed")))
            return
        }
        store.insertIfAbsent(key, keepFor: replayWindow) { result in
            switch result {
            case .success(true): completion(.firstUse)
            case .success(false): completion(.replayed)
            case .failure(let error): completion(.unavailable(error))
            }
        }
    }
}
