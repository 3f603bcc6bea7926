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

    /// The decoder reads four characters per step from pre-shifted tables; it answers
    /// exactly as the character-at-a-time reading of RFC 4648 §5 (`referenceDecode`) on
    /// every length, on random texts from the alphabet, and on the same with one byte
    /// swapped for any of the 256 (padding, `+`, `/`, whitespace, non-ASCII, NUL) or the
    /// last character's unused bits set.
    @Test func fourAtATimeAgreesWithTheReference() {
        var generator = SplitMix64(seed: 21)
        let alphabet = Base64URL.alphabet
        var accepted = 0
        var refused = 0
        func compare(_ text: [UInt8]) {
            let expected = Self.referenceDecode(text)
            #expect(Base64URL.decode(text[...]) == expected)
            // Into a buffer larger than needed, as the payload's reader decodes.
            let room = text.count / 4 * 3 + 3
            let written = [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
                let decoded = text.withUnsafeBufferPointer {
                    Base64URL.decode($0, into: UnsafeMutableRawBufferPointer(buffer))
                }
                count = decoded ?? 0
                #expect((decoded == nil) == (expected == nil))
            }
            if let expected {
                #expect(written == expected)
                accepted += 1
            } else {
                refused += 1
            }
        }
        for length in 0...64 {
            for _ in 0..<40 {
                var text = (0..<length).map { _ in alphabet[generator.next(below: 64)] }
                compare(text)
                guard length > 0 else { continue }
                var swapped = text
                swapped[generator.next(below: length)] = UInt8(truncatingIfNeeded: generator.next())
                compare(swapped)
                // Every value of the last byte: the canonical tails pass, the rest fail.
                let last = text.count - 1
                for byte in UInt8.min...UInt8.max where generator.next(below: 8) == 0 {
                    text[last] = byte
                    compare(text)
                }
            }
        }
        #expect(accepted > 1000)
        #expect(refused > 1000)
    }

    /// The character-at-a-time decoder the four-at-a-time one replaced, as the reference.
    static func referenceDecode(_ text: [UInt8]) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        var values: [UInt8] = []
        for byte in text {
            guard let value = Base64URL.alphabet.firstIndex(of: byte) else { return nil }
            values.append(UInt8(value))
        }
        var bits: UInt32 = 0
        var bitCount = 0
        var out: [UInt8] = []
        for value in values {
            bits = bits << 6 | UInt32(value)
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                out.append(UInt8(truncatingIfNeeded: bits >> UInt32(bitCount)))
                bits &= (1 << UInt32(bitCount)) - 1
            }
        }
        // The bits left over (2 or 4 after a partial group) must be zero: the canonical
        // spelling.
        return bits == 0 ? out : nil
    }
}
