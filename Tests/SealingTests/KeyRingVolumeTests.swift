import TestSupport
import Testing

@testable import Sealing

/// Volume checks of `KeyRing+Sealing`: nonce freshness over a million seals, and
/// random input to `open` that must always end in `.invalidToken`, never a crash. The
/// full counts run under TOKENSWAP_VOLUME_TESTS=1 (`scripts/prove/volume`); plain
/// `swift test` runs a sample of each (`Volume`).
///
/// Each runs on a thread of its own (`offPool`) and counts wrong outcomes instead of
/// expecting inside the loop: seconds of synchronous work on the two cooperative
/// threads would stall every other suite running beside it.
@Suite(.resourceClass(.compute)) struct KeyRingVolumeTests {
    /// Distinct outputs for the same input, key and context can only come from distinct
    /// nonces. The full text of every output is kept and compared, not a digest.
    @Test func oneMillionSealsOfTheSameInputAreDistinct() async throws {
        let ring = try Fixtures.ring("k:\(Fixtures.keyA)")
        let count = Volume.count(1_000_000, sample: 20_000)
        let distinct = try await offPool {
            var outputs = Set<String>(minimumCapacity: count)
            for _ in 0..<count {
                outputs.insert(try ring.seal([0x61], context: Fixtures.context))
            }
            return outputs.count
        }
        #expect(distinct == count)
    }

    /// How many of `inputs` did not end in `.invalidToken` (opened, or failed otherwise).
    static func wrongOutcomes(_ ring: KeyRing, _ inputs: some Sequence<String>) -> Int {
        var wrong = 0
        for text in inputs {
            do {
                _ = try ring.open(text, context: Fixtures.context)
                wrong += 1
            } catch .invalidToken {
            } catch {
                wrong += 1
            }
        }
        return wrong
    }

    @Test func randomTextNeverOpens() async throws {
        let ring = try Fixtures.ring("k1:\(Fixtures.keyA)")
        let wrong = try await offPool { Self.wrongOutcomes(ring, Self.randomTexts(seed: 42)) }
        #expect(wrong == 0)
    }

    static func randomTexts(seed: UInt64) -> [String] {
        var generator = SplitMix64(seed: seed)
        // Mostly alphabet characters so some inputs get past decoding, plus bytes
        // that must be refused, including multi-byte UTF-8.
        let characters =
            Base64URL.alphabet.map { Character(UnicodeScalar($0)) }
            + ["+", "/", "=", " ", "\n", "%", "é", "\u{0}", "😀"]
        return (0..<Volume.count(100_000, sample: 5_000)).map { _ in
            let length = Int.random(in: 0...260, using: &generator)
            var text = ""
            for _ in 0..<length {
                let pick = Int.random(in: 0..<100, using: &generator)
                text.append(
                    pick < 97
                        ? characters[Int.random(in: 0..<64, using: &generator)]
                        : characters[Int.random(in: 64..<characters.count, using: &generator)])
            }
            return text
        }
    }

    /// Random byte strings that start like a real token (version 1, the ring's kid) so
    /// they reach the tag check.
    @Test func randomBytesBehindAValidHeaderNeverOpen() async throws {
        let ring = try Fixtures.ring("k1:\(Fixtures.keyA)")
        let wrong = try await offPool {
            var generator = SplitMix64(seed: 43)
            let texts = (0..<Volume.count(100_000, sample: 5_000)).map { _ in
                let length = Int.random(in: 0...200, using: &generator)
                let body = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                return Base64URL.encode([0x01, 2] + Array("k1".utf8) + body)
            }
            return Self.wrongOutcomes(ring, texts)
        }
        #expect(wrong == 0)
    }

    @Test func randomMutationsOfValidTokensNeverOpen() async throws {
        let ring = try Fixtures.ring("k1:\(Fixtures.keyA)")
        let sealed = try ring.seal(Fixtures.refreshToken, context: Fixtures.context)
        let wrong = try await offPool {
            Self.wrongOutcomes(ring, Self.mutations(of: sealed, seed: 44))
        }
        #expect(wrong == 0)
    }

    /// 100,000 distinct random edits (replace, delete, insert, truncate) of `sealed`
    /// (5,000 without TOKENSWAP_VOLUME_TESTS=1).
    static func mutations(of sealed: String, seed: UInt64) -> [String] {
        var generator = SplitMix64(seed: seed)
        var result: [String] = []
        let original = Array(sealed.utf8)
        let alphabet = Base64URL.alphabet + Array("+/=\n ".utf8)
        var mutated = 0
        let wanted = Volume.count(100_000, sample: 5_000)
        while mutated < wanted {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0 where !bytes.isEmpty:
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] =
                        alphabet.randomElement(using: &generator) ?? 0x41
                case 1 where !bytes.isEmpty:
                    bytes.remove(at: Int.random(in: 0..<bytes.count, using: &generator))
                case 2:
                    bytes.insert(
                        alphabet.randomElement(using: &generator) ?? 0x41,
                        at: Int.random(in: 0...bytes.count, using: &generator))
                default:
                    bytes.removeLast(min(bytes.count, Int.random(in: 0...8, using: &generator)))
                }
            }
            guard bytes != original else { continue }
            mutated += 1
            result.append(String(decoding: bytes, as: UTF8.self))
        }
        return result
    }
}
