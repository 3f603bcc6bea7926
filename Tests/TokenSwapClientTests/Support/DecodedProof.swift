import Crypto
import Foundation
import Testing

@testable import TokenSwapClient

/// A DPoP proof taken apart as a server would (RFC 9449 §4.3): its header and claims as
/// JSON objects, and whether its signature verifies with the public key in its own `jwk`.
struct DecodedProof {
    let headerText: String
    let header: [String: Any]
    let claims: [String: Any]
    let signatureVerifies: Bool
    let signatureLength: Int

    init(_ proof: String) throws {
        let parts = proof.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let headerData = try #require(Base64URL.decode(parts[0]))
        let claimsData = try #require(Base64URL.decode(parts[1]))
        let signature = try #require(Base64URL.decode(parts[2]))
        headerText = String(decoding: headerData, as: UTF8.self)
        let headerObject = try JSONSerialization.jsonObject(with: headerData)
        let claimsObject = try JSONSerialization.jsonObject(with: claimsData)
        header = try #require(headerObject as? [String: Any])
        claims = try #require(claimsObject as? [String: Any])
        let jwk = try #require(header["jwk"] as? [String: Any])
        let xText = try #require(jwk["x"] as? String)
        let yText = try #require(jwk["y"] as? String)
        let x = try #require(Base64URL.decode(xText))
        let y = try #require(Base64URL.decode(yText))
        let publicKey = try P256.Signing.PublicKey(rawRepresentation: x + y)
        signatureLength = signature.count
        let input = Data((parts[0] + "." + parts[1]).utf8)
        signatureVerifies =
            (try? P256.Signing.ECDSASignature(rawRepresentation: signature)).map {
                publicKey.isValidSignature($0, for: input)
            } ?? false
    }

    var jti: String? { claims["jti"] as? String }
    var nonce: String? { claims["nonce"] as? String }
    var htu: String? { claims["htu"] as? String }
    var jwk: [String: String]? { header["jwk"] as? [String: String] }
}
