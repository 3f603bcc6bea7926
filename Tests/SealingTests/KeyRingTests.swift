import Testing

@testable import Sealing

/// No textual form of a ring, a key or an opened token shows key or token material.
@Suite struct KeyRingTests {
    @Test func descriptionsShowKidsOnly() throws {
        let ring = try KeyRing(parsing: "k2:\(Fixtures.keyB),k1:\(Fixtures.keyA)")
        var dumped = ""
        dump(ring, to: &dumped)
        var dumpedKey = ""
        dump(ring.keys[0], to: &dumpedKey)
        let texts = [
            String(describing: ring), String(reflecting: ring), "\(ring)", dumped,
            String(describing: ring.keys), String(reflecting: ring.keys[1]), dumpedKey,
        ]
        for text in texts {
            #expect(text.contains("k1") || text.contains("k2"))
            for key in [Fixtures.keyA, Fixtures.keyB] {
                #expect(!text.contains(key.prefix(8)))
            }
            #expect(!text.contains("0, 1, 2, 3"))
            #expect(!text.contains("32, 33, 34"))
        }
    }

    @Test func openedTokenHidesPlaintext() throws {
        let ring = try KeyRing(parsing: "k1:\(Fixtures.keyA)")
        let secret = "AQDsecret-refresh-value"
        let opened = try ring.open(
            ring.seal(secret, context: Fixtures.context), context: Fixtures.context)
        var dumped = ""
        dump(opened, to: &dumped)
        for text in [String(describing: opened), String(reflecting: opened), dumped] {
            #expect(!text.contains("secret"))
            #expect(!text.contains("65, 81, 68"))  // "AQD" as bytes
            #expect(text.contains("k1"))
        }
    }

    @Test func ephemeralRingsAreIndependent() throws {
        let first = try KeyRing.ephemeral()
        let second = try KeyRing.ephemeral()
        let sealed = try first.seal("x", context: Fixtures.context)
        #expect(try first.open(sealed, context: Fixtures.context).plaintextString == "x")
        #expect(throws: SealingError.invalidToken) {
            try second.open(sealed, context: Fixtures.context)
        }
    }
}
