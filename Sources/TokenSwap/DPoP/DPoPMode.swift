/// `TOKENSWAP_<NAME>_DPOP` (CONTRACT §13): what a provider does with `DPoP` headers.
public enum DPoPMode: String, Sendable, CaseIterable {
    /// A valid proof binds; no proof binds nothing, so clients that cannot send proofs
    /// work as before (the default).
    case optional
    /// A swap, refresh, token or device request without a valid proof is refused with
    /// `400 invalid_dpop_proof`.
    case required
    /// The header is ignored: nothing is bound, no `DPoP-Nonce` is sent, discovery does
    /// not list the algorithm.
    case off

    public static let `default` = DPoPMode.optional
}
