/// What the replay check of a proof's `jti` found (RFC 9449 §11.1, CONTRACT §13).
enum DPoPReplayVerdict: Sendable, Equatable {
    /// First use within the window: the proof is valid.
    case firstUse
    /// Seen before at this provider: `400 invalid_dpop_proof`, outcome `replayed`.
    case replayed
    /// Not recorded for want of room (the memory's ids are full, or the client's share of
    /// them): `503` with `Retry-After`, the proof refused without being judged.
    case noRoom(retryAfterSeconds: Int)
    /// The store failed; the caller answers as for any store failure (CONTRACT §12).
    case unavailable(StateStoreError)
}

/// The `jti` replay check through §12's store: the caller records the proof's
/// `proofID` (`proofIDKey`) with `recordProofID` for `replayWindow` and reads the answer
/// by `verdict`, so a second proof with the `jti` is refused on this copy and, with a
/// shared store, on every copy. The caller's callback is the store's own
/// (`DPoPGate.inspect`): one closure per proof.
extension DPoPProofChecker {
    /// The store key of a `jti` (its UTF-8) at `provider`: a digest of both (`StateKey`),
    /// the same as of the `jti` as text; nil only when OpenSSL cannot digest
    /// (`digestFailed`). Made from the claims' bytes in place while they are checked.
    static func proofIDKey(jti: UnsafeBufferPointer<UInt8>, provider: String) -> StateKey? {
        StateKey(.proofID, scope: provider, utf8: jti)
    }

    /// What the store's `recordProofID` answer for a proof's key means.
    static func verdict(_ result: Result<ProofIDRecording, StateStoreError>) -> DPoPReplayVerdict {
        switch result {
        case .success(.recorded): .firstUse
        case .success(.seenBefore): .replayed
        case .success(.noRoom(let seconds)): .noRoom(retryAfterSeconds: seconds)
        case .failure(let error): .unavailable(error)
        }
    }

    /// The store failure a proof whose key cannot be digested is answered with.
    static var digestFailed: StateStoreError {
        StateStoreError(operation: "insert", reason: "digest failed")
    }
}
