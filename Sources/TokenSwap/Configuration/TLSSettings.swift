/// `TOKENSWAP_TLS_CERT_FILE` and `TOKENSWAP_TLS_KEY_FILE`, checked at load: both set,
/// the chain parses, the key parses and matches the leaf (CONTRACT §10).
public struct TLSSettings: Sendable, Equatable {
    /// PEM, leaf first, then intermediates.
    public let certificateChainFile: String
    /// PEM private key of the leaf.
    public let keyFile: String
    /// The leaf's notAfter when loaded (seconds since the epoch), for `check-config`.
    public let notAfterSeconds: Int64

    /// `check-config` warns when the certificate expires within this (CONTRACT §10).
    public static let expiryWarningSeconds: Int64 = 14 * 24 * 3600
}
