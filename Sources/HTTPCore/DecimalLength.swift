/// Content-Length = 1*DIGIT (RFC 9110 §8.6), parsed by hand: `Int(String)` accepts `+5`,
/// and a length must never wrap around.
enum DecimalLength {
    /// The value, or nil when it is empty, has a non-digit, or overflows `Int`.
    static func parse(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty else { return nil }
        var value = 0
        for index in range {
            let byte = bytes[index]
            guard HTTPGrammar.isDigit(byte) else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int(byte - 0x30))
            if o1 || o2 { return nil }
            value = sum
        }
        return value
    }
}
