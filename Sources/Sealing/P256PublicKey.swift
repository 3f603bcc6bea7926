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
    /// DER; es256.c reads the two numbers directly.
    package static let signatureByteCount = 64

    package let x: [UInt8]
    package let y: [UInt8]
    /// OpenSSL's form of the key (an `EC_POINT`), made (and the point checked) once:
    /// every signature checked by this key reuses it.
    private let verifier: Verifier

    /// The key with these coordinates, or nil when either is not 32 bytes or the point is
    /// not on P-256.
    package init?(x: [UInt8], y: [UInt8]) {
        guard x.count == Self.coordinateByteCount, y.count == Self.coordinateByteCount,
            let verifier = Verifier(x: x, y: y)
        else { return nil }
        self.x = x
        self.y = y
        self.verifier = verifier
    }

    /// Whether `signature` (r‖s, exactly 64 bytes) is this key's ES256 signature of
    /// `message` (for a JWS, the ASCII of `header.payload`).
    package func verifies(signature: [UInt8], of message: some Collection<UInt8>) -> Bool {
        guard signature.count == Self.signatureByteCount else { return false }
        let valid = signature.withUnsafeBufferPointer { signature in
            let checked = message.withContiguousStorageIfAvailable { message in
                tokenswap_es256_verify(
                    verifier.key, message.baseAddress, message.count, signature.baseAddress)
            }
            if let checked { return checked }
            return Array(message).withUnsafeBufferPointer { message in
                tokenswap_es256_verify(
                    verifier.key, message.baseAddress, message.count, signature.baseAddress)
            }
        }
        return valid == 1
    }

    /// `verifies(signature:of:)` of a signature and a message given as their bytes, read in
    /// place.
    package func verifies(signature: UnsafeRawBufferPointer, of message: UnsafeRawBufferPointer)
        -> Bool
    {
        guard signature.count == Self.signatureByteCount,
            let signatureBytes = signature.baseAddress
        else { return false }
        let valid = tokenswap_es256_verify(
            verifier.key, message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count,
            signatureBytes.assumingMemoryBound(to: UInt8.self))
        return valid == 1
    }

    /// A key is its coordinates; OpenSSL's copy of them is not part of its identity.
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.x == rhs.x && lhs.y == rhs.y
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(x)
        hasher.combine(y)
    }

    /// Owns the `EC_POINT`. `@unchecked Sendable` is sound because the point is set once
    /// in `init`, OpenSSL only reads it while verifying (`EC_POINT_mul` takes it `const`;
    /// each thread computes in its own numbers, es256.c), and it is freed only in `deinit`.
    private final class Verifier: @unchecked Sendable {
        let key: OpaquePointer

        init?(x: [UInt8], y: [UInt8]) {
            guard
                let key = x.withUnsafeBufferPointer({ x in
                    y.withUnsafeBufferPointer { y in
                        tokenswap_p256_key_new(x.baseAddress, y.baseAddress)
                    }
                })
            else { return nil }
            self.key = key
        }

        deinit {
            tokenswap_p256_key_free(key)
        }
    }
}
