import COpenSSL

/// A P-256 public key as a DPoP proof's `jwk` carries it (RFC 7518 §6.2.1: `x` and `y`,
/// 32 bytes each), checked to be a point on the curve when made, and the ES256 check of
/// a JWS signature by it (RFC 7518 §3.4), through OpenSSL (CONTRACT §13;
/// ARCHITECTURE.md: only `Sealing` and `TLS` reach it).
///
/// Every way the input can be wrong (a wrong length, a point off the curve, a signature
/// of the wrong length or with r or s out of range, a signature that does not verify)
/// is the same answer, nil or false; OpenSSL failing on its own is refused alike.
package struct P256PublicKey: Sendable, Hashable {
    package static let coordinateByteCount = 32
    /// JWS's ES256 signature: r‖s, each a 32-byte big-endian integer (RFC 7518 §3.4), not
    /// the DER form OpenSSL verifies; the conversion happens inside.
    package static let signatureByteCount = 64

    package let x: [UInt8]
    package let y: [UInt8]

    /// The key with these coordinates, or nil when either is not 32 bytes or the point is
    /// not on P-256.
    package init?(x: [UInt8], y: [UInt8]) {
        guard x.count == Self.coordinateByteCount, y.count == Self.coordinateByteCount else {
            return nil
        }
        let valid = x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                tokenswap_p256_public_key_valid(x.baseAddress, y.baseAddress)
            }
        }
        guard valid == 1 else { return nil }
        self.x = x
        self.y = y
    }

    /// Whether `signature` (r‖s, exactly 64 bytes) is this key's ES256 signature of
    /// `message` (for a JWS, the ASCII of `header.payload`).
    package func verifies(signature: [UInt8], of message: some Collection<UInt8>) -> Bool {
        guard signature.count == Self.signatureByteCount else { return false }
        let valid = x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                signature.withUnsafeBufferPointer { signature in
                    let checked = message.withContiguousStorageIfAvailable { message in
                        tokenswap_es256_verify(
                            x.baseAddress, y.baseAddress, message.baseAddress, message.count,
                            signature.baseAddress)
                    }
                    if let checked { return checked }
                    return Array(message).withUnsafeBufferPointer { message in
                        tokenswap_es256_verify(
                            x.baseAddress, y.baseAddress, message.baseAddress, message.count,
                            signature.baseAddress)
                    }
                }
            }
        }
        return valid == 1
    }
}
