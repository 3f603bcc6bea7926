import CPosix
import Testing

/// The ring of kept answers writes and zeroes by non-temporal stores (`KeptRing`): the C
/// helpers must copy exactly what `memcpy` would, at every alignment of the target and
/// every length around the 16-byte stores, and touch no byte outside the range.
@Suite struct StreamingStoreTests {
    static let lengths = [0, 1, 7, 15, 16, 17, 31, 32, 33, 100, 255, 256, 1000, 4097]

    @Test(arguments: lengths)
    func aCopyWritesExactlyTheRange(length: Int) {
        let source = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for offset in 0..<16 {
            var target = [UInt8](repeating: 0xEE, count: length + 48)
            target.withUnsafeMutableBytes { target in
                source.withUnsafeBytes { source in
                    tokenswap_copy_streaming(
                        target.baseAddress! + 16 + offset, source.baseAddress!, length)
                }
            }
            #expect(Array(target[(16 + offset)..<(16 + offset + length)]) == source)
            #expect(target[..<(16 + offset)].allSatisfy { $0 == 0xEE })
            #expect(target[(16 + offset + length)...].allSatisfy { $0 == 0xEE })
        }
    }

    @Test(arguments: lengths)
    func zeroingClearsExactlyTheRange(length: Int) {
        for offset in 0..<16 {
            var target = [UInt8](repeating: 0xEE, count: length + 48)
            target.withUnsafeMutableBytes { target in
                tokenswap_zero_streaming(target.baseAddress! + 16 + offset, length)
            }
            #expect(target[(16 + offset)..<(16 + offset + length)].allSatisfy { $0 == 0 })
            #expect(target[..<(16 + offset)].allSatisfy { $0 == 0xEE })
            #expect(target[(16 + offset + length)...].allSatisfy { $0 == 0xEE })
        }
    }
}
