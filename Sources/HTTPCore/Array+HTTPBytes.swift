extension [UInt8] {
    /// Appends a non-negative integer in decimal without going through `String`.
    mutating func appendDecimal(_ value: Int) {
        guard value > 0 else {
            append(UInt8(ascii: "0"))
            return
        }
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            append(UInt8(truncatingIfNeeded: rest / divisor) + 0x30)
            rest %= divisor
            divisor /= 10
        }
    }

    mutating func appendASCII(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    mutating func appendCRLF() {
        append(HTTPGrammar.cr)
        append(HTTPGrammar.lf)
    }

    /// `name: value` CRLF; the caller has checked both.
    mutating func appendField(_ name: String, _ value: String) {
        append(contentsOf: name.utf8)
        append(HTTPGrammar.colon)
        append(HTTPGrammar.space)
        append(contentsOf: value.utf8)
        appendCRLF()
    }
}
