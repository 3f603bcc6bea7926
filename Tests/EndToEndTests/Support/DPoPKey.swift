import Crypto
import Foundation

/// A client's DPoP key and the proofs it signs (RFC 9449 §4.2), for the binary under
/// test: swift-crypto's P-256, JSON written here, no tokenswap code involved.
struct DPoPKey {
    let key = P256.Signing.PrivateKey()

    static func base64URL(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A proof for `POST http://127.0.0.1:<port><path>` (what `Exchange` sends as `Host`),
    /// with a fresh `jti` (or `jti` when given), `iat` now, and `nonce` when given.
    func proof(path: String, port: UInt16, nonce: String? = nil, jti: String? = nil) throws
        -> String
    {
        let raw = key.publicKey.rawRepresentation
        let jwk =
            #"{"kty":"EC","crv":"P-256","x":"\#(Self.base64URL(raw.prefix(32)))","y":"\#(Self.base64URL(raw.suffix(32)))"}"#
        let header = #"{"typ":"dpop+jwt","alg":"ES256","jwk":\#(jwk)}"#
        var claims =
            #"{"jti":"\#(jti ?? UUID().uuidString)","htm":"POST","htu":"http://127.0.0.1:\#(port)\#(path)","iat":\#(Int(Date().timeIntervalSince1970))"#
        if let nonce { claims += #","nonce":"\#(nonce)""# }
        claims += "}"
        let input = Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(Data(claims.utf8))
        let signature = try key.signature(for: Data(input.utf8))
        return input + "." + Self.base64URL(signature.rawRepresentation)
    }
}

extension Exchange {
    /// A form POST with `DPoP` fields.
    static func form(
        _ path: String, port: UInt16, _ fields: [(String, String)], dpop proofs: [String]
    ) async throws -> Answer {
        let body = fields.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
        return try await request(
            "POST", path, port: port,
            headers: [("Content-Type", "application/x-www-form-urlencoded")]
                + proofs.map { ("DPoP", $0) },
            body: body)
    }
}
