import Testing

@testable import Sealing

/// Values the service seals for itself as bytes (a kept answer, CONTRACT §12), and the
/// identity of an opened token (`SealIdentity`) that the replay window keys on.
@Suite struct KeyRingSealedBytesTests {
    static let kept = SealingContext(provider: "spotify", clientID: "client-123", kind: .keptAnswer)
    let ring: KeyRing

    init() throws {
        ring = try Fixtures.ring("k1:\(Fixtures.keyA)")
    }

    func sealBytes(_ plaintext: [UInt8], context: SealingContext = kept) throws -> [UInt8] {
        try ring.sealWithoutGrant(byteCount: plaintext.count, context: context) {
            $0.copyBytes(from: plaintext)
        }
    }

    /// The bytes are the layout's (version 1, key id, nonce, ciphertext, tag), the very
    /// bytes whose base64url text opens too, and they open to what was written.
    @Test func bytesRoundTripInLayoutVersionOne() throws {
        let plaintext = Array("{\"access_token\":\"a\"}".utf8)
        let sealed = try sealBytes(plaintext)
        #expect(sealed.count == 1 + 1 + 2 + 12 + plaintext.count + 16)
        #expect(sealed[0] == 0x01 && sealed[1] == 2 && Array(sealed[2..<4]) == Array("k1".utf8))
        #expect(try ring.open(sealedBytes: sealed, context: Self.kept).plaintext == plaintext)
        #expect(
            try ring.open(Base64URL.encode(sealed), context: Self.kept).plaintext == plaintext)
        #expect(try ring.open(sealedBytes: try sealBytes([]), context: Self.kept).plaintext == [])
        // A fresh nonce every time.
        #expect(try sealBytes(plaintext) != sealed)
    }

    @Test func bytesOpenOnlyForTheirKindAndUntampered() throws {
        let sealed = try sealBytes(Array("answer".utf8))
        #expect(throws: SealingError.invalidToken) {
            try ring.open(sealedBytes: sealed, context: Fixtures.context)
        }
        for index in sealed.indices {
            var tampered = sealed
            tampered[index] ^= 0x01
            #expect(throws: SealingError.invalidToken) {
                try ring.open(sealedBytes: tampered, context: Self.kept)
            }
        }
        #expect(throws: SealingError.invalidToken) {
            try ring.open(sealedBytes: Array(sealed.dropLast()), context: Self.kept)
        }
        #expect(throws: SealingError.invalidToken) {
            try ring.open(sealedBytes: [], context: Self.kept)
        }
    }

    /// The bound is the text's, in bytes: what seals opens, one byte more is refused on
    /// both sides, and an input beyond it is refused before anything is decrypted.
    @Test func bytesHaveTheTextsBound() throws {
        let overhead = 1 + 1 + 2 + 12 + 16
        let largest = SealedTokenLayout.maxKeptAnswerTextLength / 4 * 3 - overhead
        let sealed = try sealBytes([UInt8](repeating: 0x61, count: largest))
        #expect(try ring.open(sealedBytes: sealed, context: Self.kept).plaintext.count == largest)
        #expect(throws: SealingError.plaintextTooLong) {
            try sealBytes([UInt8](repeating: 0x61, count: largest + 1))
        }
        #expect(throws: SealingError.invalidToken) {
            try ring.open(sealedBytes: sealed + [0], context: Self.kept)
        }
        #expect(throws: SealingError.plaintextTooLong) {
            try ring.sealWithoutGrant(byteCount: -1, context: Self.kept) { _ in }
        }
    }

    /// The identity is the token's version, key id, nonce and tag, the same every time it
    /// opens and different for every seal.
    @Test func anOpenedTokenIsNamedByItsAuthenticatedParts() throws {
        let sealed = try ring.seal(Fixtures.refreshToken, context: Fixtures.context)
        let bytes = try #require(Base64URL.decode(Substring(sealed)))
        let identity = try #require(try ring.open(sealed, context: Fixtures.context).sealIdentity)
        #expect(identity.version == 2 && identity.keyID == "k1")
        #expect(identity.bytes == Array(bytes[..<16]) + Array(bytes[(bytes.count - 16)...]))
        #expect(identity.byteCount == identity.bytes.count)
        #expect(try ring.open(sealed, context: Fixtures.context).sealIdentity == identity)
        let again = try ring.seal(Fixtures.refreshToken, context: Fixtures.context)
        #expect(try ring.open(again, context: Fixtures.context).sealIdentity != identity)
        let kept = try sealBytes([1, 2, 3])
        #expect(try ring.open(sealedBytes: kept, context: Self.kept).sealIdentity?.version == 1)
        // Nothing of the nonce or tag in its text forms.
        #expect(String(describing: identity) == "SealIdentity(version: 2, keyID: k1)")
        #expect(String(reflecting: identity) == String(describing: identity))
        // Built by hand (a legacy format's opening): none.
        #expect(
            OpenedToken(plaintext: [], keyID: "k1", sealedWithActiveKey: true).sealIdentity == nil)
    }
}
