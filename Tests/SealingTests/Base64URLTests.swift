import TestSupport
import Testing

@testable import Sealing

@Suite struct Base64URLTests {
    /// RFC 4648 §10 test vectors (no padding), plus bytes that use `-` and `_`.
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
        ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(_ plain: String, _ encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(Substring(encoded)) == Array(plain.utf8))
    }

    @Test func urlAlphabetReplacesPlusAndSlash() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
    }

    @Test func roundTripsEveryLengthAndByte() {
        var generator = SplitMix64(seed: 1)
        for length in 0...100 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Base64URL.encode(bytes)
            #expect(text.utf8.count == Base64URL.encodedLength(byteCount: length))
            #expect(Base64URL.decode(Substring(text)) == bytes)
        }
        for byte in UInt8.min...UInt8.max {
            #expect(
                Base64URL.decode(Substring(Base64URL.encode([byte, byte &+ 1]))) == [
                    byte, byte &+ 1,
                ])
        }
    }

    @Test(arguments: [
        "Zg==", "Zm8=", "Zg=", "=", "Zm+v", "Zm/v", "Zm9 v", " Zm9v", "Zm9v\n", "Zm9v\r\n",
        "Zm\tv", "Z", "Zm9vY", "Zh", "Zm9", "Zm9vYh", "Zm é", "Zm9v%3D", "Zm.v", "Zm\u{0}v",
    ])
    func rejectsAnythingButCanonicalUnpadded(_ text: String) {
        #expect(Base64URL.decode(Substring(text)) == nil)
    }

    /// Every two- and three-character tail decodes only if it is the one canonical
    /// spelling of its bytes, so no two texts decode alike.
    @Test func acceptsExactlyTheCanonicalTails() {
        let alphabet = Base64URL.alphabet.map { Character(Unicode.Scalar($0)) }
        var acceptedPairs = 0
        for first in alphabet {
            for second in alphabet {
                let text = "AAAA" + String(first) + String(second)
                if let bytes = Base64URL.decode(Substring(text)) {
                    acceptedPairs += 1
                    #expect(Base64URL.encode(bytes) == text)
                }
            }
        }
        // Each byte has one spelling: 64 first characters × 4 canonical second ones.
        #expect(acceptedPairs == 64 * 4)
        var accepted = 0
        for first in alphabet.prefix(4) {
            for second in alphabet {
                for third in alphabet {
                    let text = String(first) + String(second) + String(third)
                    if let bytes = Base64URL.decode(Substring(text)) {
                        accepted += 1
                        #expect(Base64URL.encode(bytes) == text)
                    }
                }
            }
        }
        // 4 first characters × 64 second × 16 canonical third characters.
        #expect(accepted == 4 * 64 * 16)
    }

    @Test func decodedLengthRefusesOneModFour() {
        #expect(Base64URL.decodedLength(characterCount: 0) == 0)
        #expect(Base64URL.decodedLength(characterCount: 1) == nil)
        #expect(Base64URL.decodedLength(characterCount: 2) == 1)
        #expect(Base64URL.decodedLength(characterCount: 3) == 2)
        #expect(Base64URL.decodedLength(characterCount: 43) == 32)
        #expect(Base64URL.decodedLength(characterCount: 5) == nil)
    }
}
