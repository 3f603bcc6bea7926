import Crypto
import Foundation

#if canImport(CryptoKit)
    import CryptoKit
#endif

/// A session's DPoP key (RFC 9449, CONTRACT §13): a P-256 signing key whose public half
/// goes into every proof's `jwk` and whose RFC 7638 thumbprint is what tokenswap binds the
/// sealed refresh token to. The private half is a software key (swift-crypto, CryptoKit on
/// Apple platforms) or a Secure Enclave key that never leaves the device's hardware.
///
/// Prints and dumps as `DPoPKey(P-256)`: neither half, nor the thumbprint, reaches a log.
public struct DPoPKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The 64 bytes `x‖y` of the public key (its JWK coordinates, RFC 7518 §6.2.1).
    let publicKeyBytes: Data
    private let signer: Signer

    /// A software key: on Linux from a `FileDPoPKeyStore` or made in memory for tests.
    public init(_ privateKey: P256.Signing.PrivateKey) {
        self.publicKeyBytes = privateKey.publicKey.rawRepresentation
        self.signer = Signer(sign: { try privateKey.signature(for: $0).rawRepresentation })
    }

    #if canImport(CryptoKit)
        /// A Secure Enclave key (Apple platforms with one): signs in hardware.
        public init(secureEnclave privateKey: SecureEnclave.P256.Signing.PrivateKey) {
            self.publicKeyBytes = privateKey.publicKey.rawRepresentation
            self.signer = Signer(sign: { try privateKey.signature(for: $0).rawRepresentation })
        }
    #endif

    /// A key that signs with `sign` (a test's refusing signer).
    init(publicKeyBytes: Data, sign: @escaping (Data) throws -> Data) {
        self.publicKeyBytes = publicKeyBytes
        self.signer = Signer(sign: sign)
    }

    /// A fresh software key.
    public static func generate() -> DPoPKey {
        DPoPKey(P256.Signing.PrivateKey())
    }

    /// ES256 over `input`: the JWS signature `r‖s`, 64 bytes (RFC 7518 §3.4), not DER.
    func sign(_ input: Data) throws -> Data {
        try signer.sign(input)
    }

    /// The public JWK with its members in RFC 7638's order (`crv`, `kty`, `x`, `y`), which is
    /// also the exact text its thumbprint is taken over.
    var jwk: String { Self.jwk(publicKeyBytes) }

    /// RFC 7638 §3: base64url(SHA-256(the canonical JWK)): `jkt`, what a bound token names.
    var thumbprint: String { Self.thumbprint(publicKeyBytes) }

    static func jwk(_ publicKeyBytes: Data) -> String {
        let x = Base64URL.encode(publicKeyBytes.prefix(32))
        let y = Base64URL.encode(publicKeyBytes.suffix(32))
        return #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
    }

    static func thumbprint(_ publicKeyBytes: Data) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(jwk(publicKeyBytes).utf8))))
    }

    /// Keys are the same key when their public halves are.
    public static func == (lhs: DPoPKey, rhs: DPoPKey) -> Bool {
        lhs.publicKeyBytes == rhs.publicKeyBytes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(publicKeyBytes)
    }

    public var description: String { "DPoPKey(P-256)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// The signing closure. `@unchecked`: it captures an immutable key value (software or
    /// Secure Enclave) that no SDK release marks `Sendable` on every platform the kit
    /// builds for, and signs without touching shared state.
    private struct Signer: @unchecked Sendable {
        let sign: (Data) throws -> Data
    }
}
