import Sealing
import Testing

@testable import TokenSwap

/// The state store's keys (CONTRACT §12): digests of what they stand for, written
/// `ts:<ns>:<hex>`, a sealed token named by its text or by its `SealIdentity`.
@Suite struct StateKeyTests {
    static func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }

    /// The digest of a text value is SHA-256 of `ns | 0 | scope | 0 | value`, as before
    /// the digest was held inline: keys in a shared store keep their names.
    @Test func aTextKeyIsTheDigestOfItsNamespaceScopeAndValue() throws {
        let key = try #require(StateKey(.rateLimit, scope: "refresh", value: "192.0.2.1"))
        let expected = try #require(SHA256.digest(Array("l\0refresh\0192.0.2.1".utf8)))
        #expect(key.digest == expected)
        #expect(key.description == "ts:l:" + Self.hex(expected))
        #expect(key.digestPrefix == expected.prefix(8).reduce(0) { $0 << 8 | UInt64($1) })
        #expect(key == StateKey(.rateLimit, scope: "refresh", value: "192.0.2.1"[...]))
        #expect(key != StateKey(.rateLimit, scope: "refresh", value: "192.0.2.2"))
        #expect(key != StateKey(.rateLimit, scope: "other", value: "192.0.2.1"))
        #expect(key != StateKey(.devicePoll, scope: "refresh", value: "192.0.2.1"))
    }

    /// A value given as its UTF-8 bytes (a DPoP `jti` read in place) has the key of the
    /// text with those bytes, ASCII or not, empty or long.
    @Test(arguments: [
        "e1j3V_bKic8-LAEB", "", "jti-\u{00E9}-\u{1F600}", String(repeating: "x", count: 300),
    ])
    func aValueGivenAsBytesHasTheKeyOfItsText(_ value: String) throws {
        let bytes = Array(value.utf8)
        let key = bytes.withUnsafeBufferPointer { StateKey(.proofID, scope: "spotify", utf8: $0) }
        #expect(key == StateKey(.proofID, scope: "spotify", value: value))
        #expect(
            try #require(key).digest
                == SHA256.digest(Array("j\0spotify\0".utf8) + bytes))
    }

    /// A value given as bytes to write in hex (a family id, CONTRACT §14) has the key of
    /// its lowercase hex text, as revoked families and generations were keyed before: a
    /// shared store keeps finding them. Random bytes at every length up to 40, and every byte value.
    @Test func bytesGivenForHexHaveTheKeyOfTheirHexText() throws {
        var generator = SystemRandomNumberGenerator()
        for count in 0...40 {
            let bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            for namespace in [StateNamespace.revokedFamily, .familyGeneration] {
                let key = StateKey(namespace, scope: "spotify", hexOf: bytes)
                #expect(key == StateKey(namespace, scope: "spotify", value: Hex.encode(bytes)))
            }
        }
        let all = (0...255).map { UInt8($0) }
        #expect(
            StateKey(.revokedFamily, scope: "p", hexOf: all)
                == StateKey(.revokedFamily, scope: "p", value: Hex.encode(all)))
        #expect(
            StateKey(.revokedFamily, scope: "p", hexOf: [0xAB])
                != StateKey(.revokedFamily, scope: "p", value: "AB"))
    }

    /// A sealed token's key by its identity: SHA-256 of `ns | 0 | scope | 0 | 0xFF |
    /// identity`, which no text value's key can equal (UTF-8 never holds 0xFF).
    @Test func aSealedTokensKeyIsTheDigestOfItsIdentity() throws {
        let ring = try KeyRing(parsing: "k1:" + String(repeating: "A", count: 43))
        let context = SealingContext(provider: "spotify", clientID: "client-1")
        let sealed = try ring.seal("raw", context: context)
        let identity = try #require(try ring.open(sealed, context: context).sealIdentity)
        let key = try #require(StateKey(.refresh, scope: "spotify", seal: identity))
        let expected = try #require(
            SHA256.digest(Array("r\0spotify\0".utf8) + [0xFF] + identity.bytes))
        #expect(key.digest == expected)
        #expect(key.description == "ts:r:" + Self.hex(expected))
        #expect(key == StateKey(.refresh, scope: "spotify", seal: identity))
        #expect(key != StateKey(.refresh, scope: "other", seal: identity))
        #expect(key != StateKey(.refresh, scope: "spotify", value: sealed))
        let again = try ring.seal("raw", context: context)
        let another = try #require(try ring.open(again, context: context).sealIdentity)
        #expect(key != StateKey(.refresh, scope: "spotify", seal: another))
    }
}
