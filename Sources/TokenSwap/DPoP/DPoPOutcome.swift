/// The `outcome` label of `tokenswap_dpop_proofs_total{provider,outcome}` (CONTRACT §13):
/// one per request that could carry a proof at a provider whose setting is not `off`.
enum DPoPOutcome: String, Sendable, CaseIterable {
    /// The proof is valid (and, for a bound token, by the bound key).
    case valid
    /// The proof breaks a rule of RFC 9449 §4.3.
    case invalid
    /// The proof lacks a current nonce: answered `use_dpop_nonce`.
    case nonceRequired = "nonce_required"
    /// The proof's `jti` was seen before.
    case replayed
    /// A valid proof by another key than the one the token is bound to, or no proof for a
    /// bound token.
    case keyMismatch = "key_mismatch"
    /// No proof, where none is bound or required (or, with `required`, refused).
    case missing
}
