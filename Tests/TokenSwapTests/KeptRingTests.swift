import TestSupport
import Testing

@testable import TokenSwap

/// `KeptRing` against a model that is plainly right: a dictionary from each span the ring
/// handed out to the bytes written there, and the order they were kept in. Thousands of
/// random steps (keep an answer of a random size, release a random live one, drop the
/// oldest, grow when the ring asks to), from several seeds and budgets; after each step
/// every span the model holds reads back its own bytes, every other span reads nothing,
/// the live byte count and the oldest record agree, and no byte of a released or dropped
/// answer is left in the buffer.
@Suite(.resourceClass(.compute)) struct KeptRingTests {
    /// A reproducible generator (SplitMix64): a failure names its seed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// What the ring should hold.
    struct Model {
        /// Every live answer's span and bytes, by the span's sequence number.
        var live: [Int: (span: KeptRing.Span, bytes: [UInt8])] = [:]
        /// Every span kept and not yet dropped, oldest first (live or released).
        var order: [KeptRing.Span] = []
        /// Spans released or dropped: they must read nothing.
        var gone: [KeptRing.Span] = []
    }

    static let runs: [(seed: UInt64, budget: Int)] = [
        (1, 4096), (2, 16 * 1024), (3, 64 * 1024), (4, 1000),
    ]

    @Test(arguments: runs)
    func agreesWithADictionaryOfSpans(seed: UInt64, budget: Int) {
        var random = SeededGenerator(state: seed)
        var ring = KeptRing(byteBudget: budget)
        var model = Model()
        var marker: UInt8 = 1
        for step in 0..<4000 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6:
                // Mostly answers of a few hundred bytes; now and then one past the budget.
                let count =
                    Int.random(in: 0..<50, using: &random) == 0
                    ? budget + Int.random(in: 1...512, using: &random)
                    : Int.random(in: 1...700, using: &random)
                keep(count: count, marker: marker, in: &ring, model: &model)
                marker = marker == 255 ? 1 : marker + 1
            case 6..<8:
                guard let span = model.live.values.randomElement(using: &random)?.span else {
                    break
                }
                ring.release(span)
                model.live[span.sequence] = nil
                model.gone.append(span)
            default:
                let dropped = ring.dropOldest()
                #expect(dropped?.span == model.order.first, "seed \(seed), step \(step)")
                if let span = model.order.first {
                    model.order.removeFirst()
                    model.live[span.sequence] = nil
                    model.gone.append(span)
                }
            }
            check(ring, model, "seed \(seed), step \(step)", scanBuffer: step % 100 == 0)
        }
        // Emptied, the ring holds nothing but zeros.
        while ring.dropOldest() != nil {}
        #expect(ring.liveByteCount == 0)
        #expect(ring.buffer.allSatisfy { $0 == 0 })
    }

    /// Keeps `count` bytes of `marker` as a shard would: drop the oldest until there is
    /// room or the ring may grow, grow if it must, then append.
    private func keep(count: Int, marker: UInt8, in ring: inout KeptRing, model: inout Model) {
        ring.shrinkIfEmpty(for: count)
        while !ring.hasRoom(for: count) {
            if ring.canGrow(for: count) {
                ring.grow(for: count)
                continue
            }
            guard let record = ring.dropOldest() else { break }
            let span = model.order.removeFirst()
            #expect(record.span == span)
            model.live[span.sequence] = nil
            model.gone.append(span)
            ring.shrinkIfEmpty(for: count)
        }
        let span = ring.append(count: count) { buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: marker)
            return true
        }
        guard let span else {
            Issue.record("no room for \(count) bytes after dropping everything and growing")
            return
        }
        #expect(span.count == count)
        model.live[span.sequence] = (span, [UInt8](repeating: marker, count: count))
        model.order.append(span)
    }

    /// `scanBuffer`: also count the buffer's non-zero bytes (every hundredth step: a scan
    /// of the whole buffer in a debug build is most of the test's time).
    private func check(_ ring: KeptRing, _ model: Model, _ where: String, scanBuffer: Bool) {
        for (span, bytes) in model.live.values {
            #expect(ring.bytes(span) == bytes, "\(`where`): a live answer reads back wrong")
        }
        for span in model.gone.suffix(64) {
            #expect(ring.bytes(span) == nil, "\(`where`): a released answer still reads")
        }
        let liveBytes = model.live.values.reduce(0) { $0 + $1.bytes.count }
        #expect(ring.liveByteCount == liveBytes, "\(`where`)")
        #expect(ring.oldest?.span == model.order.first, "\(`where`)")
        #expect(ring.recordCount == model.order.count, "\(`where`)")
        // Every non-zero byte in the buffer belongs to a live answer.
        guard scanBuffer else { return }
        #expect(ring.buffer.lazy.filter { $0 != 0 }.count == liveBytes, "\(`where`)")
    }

    /// A write that fails leaves no record and nothing in the buffer.
    @Test func aFailedWriteLeavesNothing() {
        var ring = KeptRing(byteBudget: 4096)
        ring.grow(for: 100)
        let span = ring.append(count: 100) { buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: 0xAA)
            return false
        }
        #expect(span == nil)
        #expect(ring.recordCount == 0 && ring.liveByteCount == 0)
        #expect(ring.buffer.allSatisfy { $0 == 0 })
    }
}
