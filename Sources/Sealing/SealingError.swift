/// Why sealing or opening failed.
///
/// Every way a presented token can be wrong (bad encoding, too long, unknown version or
/// key id, truncated, tampered, other key, other context) is the single case
/// `invalidToken`: the caller learns nothing it could use to probe the format, and the
/// product maps it to `400 invalid_grant`. `cryptoUnavailable` is OpenSSL failing on its
/// own (allocation, random source) and is never caused by input, so it maps to a 5xx.
public enum SealingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The token cannot be opened with this key ring and context.
    case invalidToken
    /// The plaintext is too long to seal into a token that `open` would accept.
    case plaintextTooLong
    /// OpenSSL failed for a reason unrelated to the input (allocation, RAND_bytes).
    case cryptoUnavailable

    public var description: String {
        switch self {
        case .invalidToken: "sealed token cannot be opened"
        case .plaintextTooLong: "token too long to seal"
        case .cryptoUnavailable: "OpenSSL AES-256-GCM or RAND_bytes failed"
        }
    }
}
