extension P256PublicKey {
    /// The RFC 7638 JWK thumbprint with SHA-256: the digest of the key's required members
    /// in lexicographic order, no whitespace (§3.2–3.3), `{"crv":"P-256","kty":"EC","x":…,
    /// "y":…}` with the coordinates in unpadded base64url. 32 bytes, or nil if OpenSSL
    /// fails. This is what a DPoP-bound token carries inside its seal (CONTRACT §13) and
    /// what RFC 9449 §6 calls `jkt`.
    package var thumbprint: [UInt8]? {
        var canonical: [UInt8] = []
        canonical.reserveCapacity(Self.thumbprintInputByteCount)
        canonical += #"{"crv":"P-256","kty":"EC","x":""#.utf8
        canonical += Base64URL.encode(x).utf8
        canonical += #"","y":""#.utf8
        canonical += Base64URL.encode(y).utf8
        canonical += #""}"#.utf8
        return SHA256.digest(canonical)
    }

    /// The canonical JSON's length: the fixed members and two 43-character coordinates.
    private static let thumbprintInputByteCount = 126

    /// The thumbprint in unpadded base64url, as RFC 9449 §6.1 writes `jkt`.
    package var thumbprintText: String? {
        thumbprint.map(Base64URL.encode)
    }
}
