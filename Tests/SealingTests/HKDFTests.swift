import Testing

@testable import Sealing

/// HKDF-SHA-256 against RFC 5869's appendix A and the ring's derived keys (CONTRACT §13's
/// nonce key).
@Suite struct HKDFTests {
    /// RFC 5869 A.1.
    @Test func matchesRFC5869TestCase1() throws {
        let okm = HKDF.deriveKey(
            inputKeyMaterial: [UInt8](repeating: 0x0B, count: 22), salt: Array(0x00...0x0C),
            info: Array(0xF0...0xF9), byteCount: 42)
        #expect(
            okm.map(Hex.encode)
                == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
        )
        let prk = HKDF.extract(
            salt: Array(0x00...0x0C), inputKeyMaterial: [UInt8](repeating: 0x0B, count: 22))
        #expect(
            prk.map(Hex.encode)
                == "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")
    }

    /// RFC 5869 A.3: no salt (zeros) and no info.
    @Test func matchesRFC5869TestCase3() {
        let okm = HKDF.deriveKey(
            inputKeyMaterial: [UInt8](repeating: 0x0B, count: 22), info: [], byteCount: 42)
        #expect(
            okm.map(Hex.encode)
                == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
        )
    }

    @Test func outputLengthIsBounded() {
        let prk = [UInt8](repeating: 1, count: 32)
        #expect(HKDF.expand(pseudorandomKey: prk, info: [], byteCount: 255 * 32)?.count == 255 * 32)
        #expect(HKDF.expand(pseudorandomKey: prk, info: [], byteCount: 255 * 32 + 1) == nil)
        #expect(HKDF.expand(pseudorandomKey: prk, info: [], byteCount: -1) == nil)
        #expect(HKDF.expand(pseudorandomKey: prk, info: [], byteCount: 0) == [])
    }

    @Test func ringDerivesOneKeyPerEntryAndPurpose() throws {
        let ring = try Fixtures.ring("k2:\(Fixtures.keyB),k1:\(Fixtures.keyA)")
        let single = try Fixtures.ring("k1:\(Fixtures.keyA)")
        let nonceKeys = try #require(ring.derivedKeys(info: "a"))
        #expect(nonceKeys.count == 2)
        #expect(nonceKeys[1] == single.derivedKeys(info: "a")?.first)
        #expect(nonceKeys[0] != nonceKeys[1])
        #expect(ring.derivedKeys(info: "b")?.first != nonceKeys[0])
        #expect(nonceKeys[1] != Fixtures.keyABytes)
    }
}
