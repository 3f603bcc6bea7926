import Sealing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A JWS in compact serialization (RFC 7515 §7.1): three base64url parts, the protected
/// header and the payload each a JSON object, and the signature's bytes. Parsed for DPoP
/// proofs (RFC 9449 §4.2), which arrive from any client in a request header, so every
/// size is bounded before anything is decoded and nothing but the exact grammar passes:
/// exactly two dots, no empty part, strict unpadded base64url (`Base64URL`), strict JSON
/// with duplicate member names refused (`JSONParser`). The signature is not checked
/// here (`DPoPProofChecker` does, after the header says which key). The header is read
/// by the caller's function (`Header`), which may answer from what it read before; the
/// payload is left encoded for the caller to read (`DPoPClaims.decode`), within its bound.
struct CompactJWS<Header: Sendable>: Sendable {
    /// The whole text; a proof with a P-256 `jwk`, a 256-character `jti` and a long
    /// `htu` is well below it.
    static var maxTextLength: Int { 4096 }
    /// Decoded sizes of the header and the payload.
    static var maxHeaderByteCount: Int { 1024 }
    static var maxPayloadByteCount: Int { 2048 }
    /// The signature's decoded size bound; ES256's is 64 bytes, checked by the caller.
    static var maxSignatureByteCount: Int { 512 }

    let header: Header
    /// The payload's base64url text, not empty and within `maxPayloadByteCount` once
    /// decoded: a slice of the text.
    let payload: ArraySlice<UInt8>
    /// The ASCII bytes `header.payload` that the signature covers (RFC 7515 §5.2): a
    /// slice of the text.
    let signingInput: ArraySlice<UInt8>
    let signature: JWSSignature

    /// Splits `text` (a field value's bytes, not copied: the parts are slices of it) and
    /// decodes the signature; `readHeader` gets the header's base64url text (not empty,
    /// within the size bound) and reads it, usually with `JOSEObject.decode`.
    init(
        parsing text: ArraySlice<UInt8>,
        header readHeader: (ArraySlice<UInt8>) throws(DPoPProofFailure) -> Header
    ) throws(DPoPProofFailure) {
        guard text.count <= Self.maxTextLength else {
            throw .invalid("proof longer than \(Self.maxTextLength) characters")
        }
        // The grammar is ASCII, so it is read as bytes: the dots split it, and every part
        // must decode as base64url, which no other byte does.
        guard let dots = text.withUnsafeBufferPointer(Self.twoDots) else {
            throw .invalid("proof is not three base64url parts")
        }
        let (first, second) = (text.startIndex + dots.first, text.startIndex + dots.second)
        // The parts' bounds as offsets, each part sliced where it is read: a tuple of
        // three slices in this generic type is copied through runtime metadata.
        let (headerCount, payloadCount) = (dots.first, dots.second - dots.first - 1)
        let signatureCount = text.count - dots.second - 1
        guard headerCount <= Base64URL.encodedLength(byteCount: Self.maxHeaderByteCount),
            payloadCount <= Base64URL.encodedLength(byteCount: Self.maxPayloadByteCount),
            signatureCount <= Base64URL.encodedLength(byteCount: Self.maxSignatureByteCount)
        else { throw .invalid("proof part too long") }
        guard headerCount > 0 else { throw .invalid("header is not base64url") }
        header = try readHeader(text[..<first])
        guard payloadCount > 0 else { throw .invalid("payload is not base64url") }
        payload = text[(first + 1)..<second]
        guard signatureCount > 0, let signature = JWSSignature(decoding: text[(second + 1)...])
        else { throw .invalid("signature is not base64url") }
        self.signature = signature
        signingInput = text[..<second]
    }

    /// The offsets of the text's two dots, nil unless it has exactly two; found by
    /// `memchr`, which reads a proof of a kilobyte many bytes at a time.
    private static func twoDots(_ text: UnsafeBufferPointer<UInt8>) -> (first: Int, second: Int)? {
        guard let start = text.baseAddress else { return nil }
        func dot(from offset: Int) -> Int? {
            guard offset < text.count,
                let found = memchr(start + offset, Int32(UInt8(ascii: ".")), text.count - offset)
            else { return nil }
            return start.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        guard let first = dot(from: 0), let second = dot(from: first + 1),
            dot(from: second + 1) == nil
        else { return nil }
        return (first, second)
    }
}

/// A JWS signature's decoded size, and its bytes when it has ES256's size (64, r‖s):
/// kept in place, not on the heap, as every proof has one.
struct JWSSignature: Sendable {
    /// ES256's size (RFC 7518 §3.4); `P256PublicKey.signatureByteCount`.
    static var keptByteCount: Int { 64 }

    let byteCount: Int
    /// The bytes when `byteCount` is `keptByteCount`, else zero.
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0)

    /// The signature of base64url `text` (within `CompactJWS.maxSignatureByteCount` once
    /// decoded), or nil unless it is canonical unpadded base64url.
    init?(decoding text: ArraySlice<UInt8>) {
        guard let length = Base64URL.decodedLength(characterCount: text.count) else { return nil }
        var words = self.words
        let decoded = text.withUnsafeBufferPointer { text -> Int? in
            if length == Self.keptByteCount {
                return withUnsafeMutableBytes(of: &words) { Base64URL.decode(text, into: $0) }
            }
            // Any other size is only checked to be base64url: the caller refuses it.
            return withUnsafeTemporaryAllocation(byteCount: max(1, length), alignment: 1) {
                Base64URL.decode(text, into: $0)
            }
        }
        guard let decoded else { return nil }
        byteCount = decoded
        if decoded == Self.keptByteCount { self.words = words }
    }

    /// Runs `body` with the bytes, nil unless there are `keptByteCount` of them.
    func withKeptBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        guard byteCount == Self.keptByteCount else { return nil }
        return withUnsafeBytes(of: words) { body($0) }
    }
}

/// A JOSE header or JWT claims set: a JSON object in unpadded base64url (RFC 7515 §2).
enum JOSEObject {
    static func decode(_ part: ArraySlice<UInt8>, part name: String)
        throws(DPoPProofFailure) -> [JSONValue.Member]
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
