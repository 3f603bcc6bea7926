import Sealing

/// A JWS in compact serialization (RFC 7515 §7.1): three base64url parts, the protected
/// header and the payload each a JSON object, and the signature's bytes. Parsed for DPoP
/// proofs (RFC 9449 §4.2), which arrive from any client in a request header, so every
/// size is bounded before anything is decoded and nothing but the exact grammar passes:
/// exactly two dots, no empty part, strict unpadded base64url (`Base64URL`), strict JSON
/// with duplicate member names refused (`JSONParser`). The signature is not checked
/// here (`DPoPProofChecker` does, after the header says which key).
struct CompactJWS: Sendable {
    /// The whole text; a proof with a P-256 `jwk`, a 256-character `jti` and a long
    /// `htu` is well below it.
    static let maxTextLength = 4096
    /// Decoded sizes of the header and the payload.
    static let maxHeaderByteCount = 1024
    static let maxPayloadByteCount = 2048
    /// The signature's decoded size bound; ES256's is 64 bytes, checked by the caller.
    static let maxSignatureByteCount = 512

    let header: [JSONValue.Member]
    let payload: [JSONValue.Member]
    /// The ASCII bytes `header.payload` that the signature covers (RFC 7515 §5.2).
    let signingInput: [UInt8]
    let signature: [UInt8]

    init(parsing text: Substring) throws(DPoPProofFailure) {
        guard text.utf8.count <= Self.maxTextLength else {
            throw .invalid("proof longer than \(Self.maxTextLength) characters")
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .invalid("proof is not three base64url parts") }
        guard parts[0].utf8.count <= Base64URL.encodedLength(byteCount: Self.maxHeaderByteCount),
            parts[1].utf8.count <= Base64URL.encodedLength(byteCount: Self.maxPayloadByteCount),
            parts[2].utf8.count
                <= Base64URL.encodedLength(byteCount: Self.maxSignatureByteCount)
        else { throw .invalid("proof part too long") }
        header = try Self.object(parts[0], part: "header")
        payload = try Self.object(parts[1], part: "payload")
        guard !parts[2].isEmpty, let signature = Base64URL.decode(parts[2]) else {
            throw .invalid("signature is not base64url")
        }
        self.signature = signature
        signingInput = Array(text.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
    }

    private static func object(_ part: Substring, part name: String) throws(DPoPProofFailure)
        -> [JSONValue.Member]
    {
        guard !part.isEmpty, let bytes = Base64URL.decode(part) else {
            throw .invalid("\(name) is not base64url")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch .duplicateMember {
            throw .invalid("\(name) repeats a member")
        } catch {
            throw .invalid("\(name) is not JSON")
        }
        guard case .object(let members) = value else { throw .invalid("\(name) is not an object") }
        return members
    }
}

extension [JSONValue.Member] {
    /// The value of the member `name` (names are unique: the parser refuses repeats).
    subscript(member name: String) -> JSONValue? {
        first { $0.name == name }?.value
    }
}
