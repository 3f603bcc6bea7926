import Crypto
import Foundation
import Sealing

@testable import TokenSwap

/// Makes DPoP proofs (RFC 9449 §4.2) the way a client would, signed with swift-crypto's
/// P-256 (not the service's OpenSSL code), with every part open to being spelled wrong.
/// The header and claims are JSON text, so a test can repeat members or add odd ones.
struct DPoPProofMaker {
    static let htu = "https://tokenswap.example/v1/spotify/refresh"

    let key: P256.Signing.PrivateKey

    init(key: P256.Signing.PrivateKey = P256.Signing.PrivateKey()) {
        self.key = key
    }

    var x: [UInt8] { Array(key.publicKey.rawRepresentation.prefix(32)) }
    var y: [UInt8] { Array(key.publicKey.rawRepresentation.suffix(32)) }

    /// The RFC 7638 thumbprint, by the service's code (cross-checked against Python in
    /// `SealingTests.P256PublicKeyTests`).
    var thumbprint: [UInt8] { P256PublicKey(x: x, y: y)!.thumbprint! }

    func jwk(
        kty: String = "EC", crv: String = "P-256", x: String? = nil, y: String? = nil,
        extra: String = ""
    ) -> String {
        #"{"kty":"\#(kty)","crv":"\#(crv)","x":"\#(x ?? Base64URL.encode(self.x))","y":"\#(y ?? Base64URL.encode(self.y))"\#(extra)}"#
    }

    func header(
        typ: String = "dpop+jwt", alg: String = "ES256", jwk: String? = nil, extra: String = ""
    )
        -> String
    {
        #"{"typ":"\#(typ)","alg":"\#(alg)","jwk":\#(jwk ?? self.jwk())\#(extra)}"#
    }

    static func claims(
        jti: String = "e1j3V_bKic8-LAEB", htm: String = "POST", htu: String = htu,
        iat: String = "1767225600", nonce: String? = nil, extra: String = ""
    ) -> String {
        let nonceMember = nonce.map { #","nonce":"\#($0)""# } ?? ""
        return
            #"{"jti":"\#(jti)","htm":"\#(htm)","htu":"\#(htu)","iat":\#(iat)\#(nonceMember)\#(extra)}"#
    }

    /// `header.payload.signature` with an ES256 signature (r‖s) by this key, or the
    /// given signature bytes instead.
    func proof(
        header: String? = nil, claims: String = DPoPProofMaker.claims(), signature: [UInt8]? = nil
    )
        -> String
    {
        let input =
            Base64URL.encode(Array((header ?? self.header()).utf8)) + "."
            + Base64URL.encode(Array(claims.utf8))
        let bytes = signature ?? sign(input)
        return input + "." + Base64URL.encode(bytes)
    }

    func sign(_ input: String) -> [UInt8] {
        Array(try! key.signature(for: Data(input.utf8)).rawRepresentation)
    }

    func derSignature(_ input: String) -> [UInt8] {
        Array(try! key.signature(for: Data(input.utf8)).derRepresentation)
    }
}
