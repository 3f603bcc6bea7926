/// Why a `DPoP` header did not prove possession (RFC 9449 §4.3, CONTRACT §13). The reason
/// texts name the rule that failed and never quote the proof, its key or its claims.
package enum DPoPProofFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request carried no `DPoP` field.
    case missing
    /// Any rule of §4.3 but the nonce and the replay check: `400 invalid_dpop_proof`.
    case invalid(String)
    /// Nonces are on and the proof carries none, or one tokenswap did not issue or no
    /// longer accepts: `400 use_dpop_nonce` with a fresh `DPoP-Nonce` (RFC 9449 §8).
    case nonceRequired
    /// The `jti` was seen at this provider within the acceptance window (RFC 9449 §11.1):
    /// `400 invalid_dpop_proof`.
    case replayed

    /// The `outcome` label of `tokenswap_dpop_proofs_total`.
    package var outcome: DPoPOutcome {
        switch self {
        case .missing: .missing
        case .invalid: .invalid
        case .nonceRequired: .nonceRequired
        case .replayed: .replayed
        }
    }

    package var description: String {
        switch self {
        case .missing: "no DPoP proof"
        case .invalid(let reason): "invalid DPoP proof: \(reason)"
        case .nonceRequired: "DPoP proof without a current nonce"
        case .replayed: "DPoP proof replayed"
        }
    }
}
