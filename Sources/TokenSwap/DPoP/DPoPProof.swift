import Sealing

/// A proof that passed every rule of RFC 9449 §4.3 but the replay check: the key that
/// signed it and the `jti` that the replay check records (CONTRACT §13). No textual form
/// shows the key or the `jti`.
struct DPoPProof: Sendable, Equatable, CustomStringConvertible {
    let key: P256PublicKey
    /// The key's RFC 7638 SHA-256 thumbprint, 32 bytes: what a bound token carries.
    let thumbprint: [UInt8]
    let jti: String
    /// `iat`, Unix seconds.
    let issuedAt: Int64

    var description: String { "DPoPProof(<redacted>)" }
}
