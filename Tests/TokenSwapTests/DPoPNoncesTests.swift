import Sealing
import Testing

@testable import TokenSwap

/// Stateless nonces (CONTRACT §13): any copy with the same ring accepts a nonce for at
/// least 5 and at most 10 minutes after it was issued, with no shared state.
@Suite struct DPoPNoncesTests {
    static let keyA = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
    static let keyB = "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8"

    let issuing: DPoPNonces
    let otherCopy: DPoPNonces

    init() throws {
        issuing = try #require(DPoPNonces(keyRing: KeyRing(parsing: "k1:\(Self.keyA)")))
        otherCopy = try #require(DPoPNonces(keyRing: KeyRing(parsing: "k1:\(Self.keyA)")))
    }

    /// For issue times at every offset within a step: accepted 300 s later, refused 600 s
    /// later, and refused before its step.
    @Test func acceptedFiveToTenMinutesAfterIssue() throws {
        let base: Int64 = 1_767_225_600
        for offset in stride(from: Int64(0), to: 300, by: 7) + [299] {
            let issuedAt = base + offset
            let nonce = try #require(issuing.current(now: issuedAt))
            #expect(otherCopy.accepts(nonce, now: issuedAt))
            #expect(otherCopy.accepts(nonce, now: issuedAt + 300))
            #expect(!otherCopy.accepts(nonce, now: issuedAt + 600))
            #expect(!otherCopy.accepts(nonce, now: issuedAt - offset - 1))
        }
    }

    @Test func rotationNeedsNoCoordination() throws {
        let rotated = try #require(
            DPoPNonces(keyRing: KeyRing(parsing: "k2:\(Self.keyB),k1:\(Self.keyA)")))
        let now: Int64 = 1_767_225_600
        let old = try #require(issuing.current(now: now))
        #expect(rotated.accepts(old, now: now))
        let new = try #require(rotated.current(now: now))
        #expect(new != old)
        #expect(!issuing.accepts(new, now: now))
        let stranger = try #require(DPoPNonces(keyRing: KeyRing(parsing: "k1:\(Self.keyB)")))
        #expect(stranger.accepts(new, now: now))
        #expect(!stranger.accepts(old, now: now))
    }

    @Test func malformedNoncesAreRefused() throws {
        let now: Int64 = 1_767_225_600
        let nonce = try #require(issuing.current(now: now))
        // The same MAC written with nonzero unused bits in its last character (not the
        // canonical text) is refused like any other text.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let lastCharacter = try #require(nonce.last)
        let last = try #require(alphabet.firstIndex(of: lastCharacter))
        let nonCanonical = String(nonce.dropLast()) + String(alphabet[last | 1])
        for text in [
            "", "A", nonce + "A", String(nonce.dropLast()), nonce + "=", "!" + nonce.dropFirst(),
            nonCanonical, nonce.lowercased() == nonce ? nonce.uppercased() : nonce.lowercased(),
        ] {
            #expect(!issuing.accepts(text, now: now))
        }
        #expect(issuing.accepts(nonce, now: now))
        // A clock before 1970 is step 0, never a trap.
        let early = try #require(issuing.current(now: -5))
        #expect(issuing.accepts(early, now: 0))
        #expect(issuing.accepts(early, now: .min))
        #expect(issuing.current(now: .max) != nil)
    }

    /// The nonce key is derived for its purpose: no nonce equals an HMAC under the raw key.
    @Test func nonceKeyIsNotTheSealingKey() throws {
        let now: Int64 = 1_767_225_600
        let step = DPoPNonces.step(now)
        let message = (0..<8).map { UInt8(truncatingIfNeeded: step >> UInt64(56 - 8 * $0)) }
        let raw = try #require(
            Sealing.SHA256.hmac(key: Base64URL.decode(Substring(Self.keyA))!, message: message))
        #expect(issuing.current(now: now) != Base64URL.encode(Array(raw.prefix(16))))
    }
}
