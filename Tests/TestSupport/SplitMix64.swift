/// A small seeded generator (SplitMix64), so a randomised test repeats exactly and a
/// failure can be replayed from its seed.
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (0 when `bound` is not positive), the next value modulo
    /// `bound`.
    public mutating func next(below bound: Int) -> Int {
        guard bound > 0 else { return 0 }
        return Int(next() % UInt64(bound))
    }

    /// `base` with one to three random edits, each a byte of `alphabet` written over one,
    /// inserted, or a byte removed: inputs near a valid one, for tests that compare a fast
    /// reader with the exact one.
    public mutating func mutation(of base: [UInt8], from alphabet: [UInt8]) -> [UInt8] {
        var text = base
        for _ in 0..<(1 + next(below: 3)) {
            let at = next(below: text.count + 1)
            let byte = alphabet[next(below: alphabet.count)]
            switch next(below: 3) {
            case 0 where at < text.count: text[at] = byte
            case 1: text.insert(byte, at: at)
            default: if at < text.count { text.remove(at: at) }
            }
        }
        return text
    }
}
