import Foundation

/// One DPoP proof (RFC 9449 §4.2): a JWS in compact form whose header carries the public
/// key and whose claims name this one request. It is made just before the request leaves
/// and lives only in that request's `DPoP` header: no kit value keeps it, prints it or
/// puts it in an error.
enum DPoPProof {
    /// `typ` `dpop+jwt`, `alg` `ES256`, the public `jwk`; claims `jti` (128 random bits),
    /// `htm`, `htu` (the URL without query and fragment, RFC 9449 §4.2), `iat` (whole
    /// seconds of the wall clock: the one clock tokenswap can compare with its own) and
    /// `nonce` when the server gave one (§8).
    static func make(
        key: DPoPKey, method: String, url: URL, issuedAt: Int, nonce: String?
    ) throws -> String {
        let header = #"{"typ":"dpop+jwt","alg":"ES256","jwk":\#(key.jwk)}"#
        var claims =
            #"{"jti":"\#(newJTI())","htm":\#(JSONText.string(method)),"#
            + #""htu":\#(JSONText.string(htu(url))),"iat":\#(issuedAt)"#
        if let nonce { claims += #","nonce":\#(JSONText.string(nonce))"# }
        claims += "}"
        let input = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(claims.utf8))
        return input + "." + Base64URL.encode(try key.sign(Data(input.utf8)))
    }

    /// The request URL without its query and fragment (RFC 9449 §4.2 `htu`).
    static func htu(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return url.absoluteString
        }
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        return components.url?.absoluteString ?? url.absoluteString
    }

    /// 16 bytes from the system's cryptographic generator, base64url: 22 characters, inside
    /// tokenswap's 16…256 (CONTRACT §13) and unguessable, so no two proofs share one.
    static func newJTI() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<2).flatMap { _ in
            withUnsafeBytes(of: generator.next() as UInt64) { Array($0) }
        }
        return Base64URL.encode(bytes)
    }
}
