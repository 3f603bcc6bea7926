import HTTPCore
import Sealing

/// The members of a proof's claims set that CONTRACT §13 checks (RFC 9449 §4.2): `jti`,
/// `htm`, `htu` and `nonce` as their strings' UTF-8, `iat` as its number's text, each the
/// range of its bytes in the text the claims were read from (`text`). Nil for a member
/// that is absent or of another JSON type: either breaks the rule that names it.
///
/// Read on every DPoP request, so a claims set in the shape clients send (a flat object
/// of ASCII strings and numbers) is read straight from its bytes (`readFlat`), without a
/// `JSONValue` tree and without an allocation; anything else is read by `JSONParser` as
/// before (`decode`), so the strictness of both is the parser's.
package struct DPoPClaims: Sendable, Equatable {
    package var jti: Range<Int>?
    package var htm: Range<Int>?
    package var htu: Range<Int>?
    package var iat: Range<Int>?
    package var nonce: Range<Int>?

    /// The most members `readFlat` reads, so its check for repeated names stays a few
    /// short comparisons; a larger object goes to the parser.
    static let maxFlatMemberCount = 16

    /// The claims of the base64url payload `encoded` (not empty, within
    /// `CompactJWS.maxPayloadByteCount` once decoded), given to `body` with the bytes
    /// their ranges point into, which live only as long as the call.
    static func decode<Result>(
        _ encoded: ArraySlice<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>, DPoPClaims) throws(DPoPProofFailure) -> Result
    ) throws(DPoPProofFailure) -> Result {
        guard !encoded.isEmpty,
            let capacity = Base64URL.decodedLength(characterCount: encoded.count)
        else { throw .invalid("payload is not base64url") }
        let flat: Swift.Result<Result, DPoPProofFailure>? = withUnsafeTemporaryAllocation(
            of: UInt8.self, capacity: max(1, capacity)
        ) { buffer in
            let decoded = encoded.withUnsafeBufferPointer { text in
                Base64URL.decode(text, into: UnsafeMutableRawBufferPointer(buffer))
            }
            guard let decoded else { return .failure(.invalid("payload is not base64url")) }
            let text = UnsafeBufferPointer(rebasing: buffer[..<decoded])
            guard let claims = readFlat(text) else { return nil }
            return Swift.Result { () throws(DPoPProofFailure) in try body(text, claims) }
        }
        if let flat { return try flat.get() }
        // Not the flat shape: the JSON parser reads it, or refuses it, as it always has.
        var storage: [UInt8] = []
        let claims = DPoPClaims(
            members: try JOSEObject.decode(encoded, part: "payload"), storage: &storage)
        return try storage.withUnsafeBufferPointer { text throws(DPoPProofFailure) in
            try body(text, claims)
        }
    }

    /// The members this type reads from an object `JSONParser` read, their bytes appended
    /// to `storage` (names are unique: the parser refuses repeats).
    package init(members: [JSONValue.Member], storage: inout [UInt8]) {
        func append(_ text: String) -> Range<Int> {
            let start = storage.count
            storage.append(contentsOf: text.utf8)
            return start..<storage.count
        }
        for member in members {
            switch (member.name, member.value) {
            case ("jti", .string(let text)): jti = append(text)
            case ("htm", .string(let text)): htm = append(text)
            case ("htu", .string(let text)): htu = append(text)
            case ("iat", .number(let text)): iat = append(text)
            case ("nonce", .string(let text)): nonce = append(text)
            default: break
            }
        }
    }

    init(
        jti: Range<Int>? = nil, htm: Range<Int>? = nil, htu: Range<Int>? = nil,
        iat: Range<Int>? = nil, nonce: Range<Int>? = nil
    ) {
        self.jti = jti
        self.htm = htm
        self.htu = htu
        self.iat = iat
        self.nonce = nonce
    }

    /// The claims of `text` when it is a flat object: RFC 8259's grammar restricted to one
    /// object (whitespace around it) of at most `maxFlatMemberCount` members, each name a
    /// string and each value a string, a number, `true`, `false` or `null`, every string
    /// printable ASCII or DEL without escapes, no name twice. Nil for any other text,
    /// valid JSON or not: for those `JSONParser` decides. So whatever this reads, the
    /// parser reads too, to the same members (an escape-free ASCII name equals another
    /// exactly when their bytes do).
    package static func readFlat(_ text: UnsafeBufferPointer<UInt8>) -> DPoPClaims? {
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: maxFlatMemberCount) {
            names in
            var reader = FlatReader(text: text)
            return reader.read(names: names)
        }
    }

    /// One pass over the bytes; every function answers nil where the flat shape ends.
    private struct FlatReader {
        let text: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func read(names: UnsafeMutableBufferPointer<Range<Int>>) -> DPoPClaims? {
            var claims = DPoPClaims()
            var count = 0
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return nil }
            skipWhitespace()
            if !take(UInt8(ascii: "}")) {
                while true {
                    guard count < names.count, let name = string() else { return nil }
                    for earlier in names[..<count] where same(earlier, name) { return nil }
                    names[count] = name
                    count += 1
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipWhitespace()
                    guard let value = value() else { return nil }
                    claims.set(name: name, value: value, in: text)
                    skipWhitespace()
                    if take(UInt8(ascii: "}")) { break }
                    guard take(UInt8(ascii: ",")) else { return nil }
                    skipWhitespace()
                }
            }
            skipWhitespace()
            return index == text.count ? claims : nil
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < text.count, text[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipWhitespace() {
            while index < text.count {
                switch text[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        /// A value the flat shape allows: its kind and the range of a string's content
        /// or a number's text.
        private mutating func value() -> (kind: ValueKind, range: Range<Int>)? {
            guard index < text.count else { return nil }
            switch text[index] {
            case UInt8(ascii: "\""): return string().map { (.string, $0) }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return number().map { (.number, $0) }
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return nil
            }
        }

        private mutating func literal(_ word: StaticString) -> (kind: ValueKind, range: Range<Int>)?
        {
            let count = word.utf8CodeUnitCount
            guard text.count - index >= count else { return nil }
            for offset in 0..<count where text[index + offset] != word.utf8Start[offset] {
                return nil
            }
            index += count
            return (.other, (index - count)..<index)
        }

        /// A string's content, between its quotes: bytes 0x20–0x7F but `"` and `\`.
        private mutating func string() -> Range<Int>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            // Whole words of content first (no control, quote, backslash or non-ASCII
            // byte: `ByteWord`); the bytes from the first word that holds anything else,
            // or from the last few, one at a time.
            index = ByteWord.skipWords(
                without: .jsonPlainEnds, in: UnsafeRawBufferPointer(text), from: index)
            while index < text.count {
                let byte = text[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return start..<(index - 1)
                }
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
                index += 1
            }
            return nil
        }

        /// number = [ minus ] int [ frac ] [ exp ] (RFC 8259 §6), by `JSONParser`'s grammar.
        private mutating func number() -> Range<Int>? {
            let start = index
            guard let end = JSONParser.numberEnd(in: text, from: start) else { return nil }
            index = end
            return start..<end
        }

        private func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
            guard a.count == b.count else { return false }
            for offset in 0..<a.count
            where text[a.lowerBound + offset] != text[b.lowerBound + offset] {
                return false
            }
            return true
        }
    }

    private enum ValueKind {
        case string, number, other
    }

    /// Records `value` when `name` is a member this type reads and the value has its type.
    private mutating func set(
        name: Range<Int>, value: (kind: ValueKind, range: Range<Int>),
        in text: UnsafeBufferPointer<UInt8>
    ) {
        func named(_ word: StaticString) -> Bool {
            guard name.count == word.utf8CodeUnitCount else { return false }
            for offset in 0..<name.count
            where text[name.lowerBound + offset] != word.utf8Start[offset] {
                return false
            }
            return true
        }
        switch (name.count, value.kind) {
        case (3, .string):
            if named("jti") {
                jti = value.range
            } else if named("htm") {
                htm = value.range
            } else if named("htu") {
                htu = value.range
            }
        case (3, .number):
            if named("iat") { iat = value.range }
        case (5, .string):
            if named("nonce") { nonce = value.range }
        default:
            break
        }
    }
}
