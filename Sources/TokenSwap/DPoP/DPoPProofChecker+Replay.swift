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
        guard let key = proofIDKey(proof, provider: provider) else {
            completion(.unavailable(Self.digestFailed))
            return
        }
        store.insertIfAbsent(key, keepFor: replayWindow) { completion(Self.verdict($0)) }
    }

    /// The store key `recordProofID` records: nil only when OpenSSL cannot digest. For a
    /// caller that hands the store its own callback (`DPoPGate.inspect`: one closure per
    /// proof, not one around another).
    func proofIDKey(_ proof: DPoPProof, provider: String) -> StateKey? {
        StateKey(.proofID, scope: provider, value: proof.jti)
    }

    /// What the store's `insertIfAbsent` answer for a proof's key means.
    static func verdict(_ result: Result<Bool, StateStoreError>) -> DPoPReplayVerdict {
        switch result {
        case .success(true): .firstUse
        case .success(false): .replayed
        case .failure(let error): .unavailable(error)
        }
    }

    /// The store failure `recordProofID` reports when the key cannot be digested.
    static var digestFailed: StateStoreError {
        StateStoreError(operation: "insert", reason: "digest failed")
    }
}
