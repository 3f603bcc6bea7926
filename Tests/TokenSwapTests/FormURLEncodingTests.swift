import TestSupport
import Testing

@testable import TokenSwap

@Suite(.resourceClass(.compute)) struct FormURLEncodingTests {
    @Test(arguments: [
        ("code=abc&state=x", [("code", "abc"), ("state", "x")]),
        ("a=1+2&b=%41%2b%2F", [("a", "1 2"), ("b", "A+/")]),
        ("a=&b", [("a", ""), ("b", "")]),
        ("a=1&&b=2&", [("a", "1"), ("b", "2")]),
        ("a=x=y", [("a", "x=y")]),
        ("n%C3%A9=%C3%A9", [("né", "é")]),
        ("", []),
    ])
    func decodes(body: String, pairs: [(String, String)]) throws {
        let decoded = try FormURLEncoding.decode(Array(body.utf8))
        #expect(decoded.map(\.name) == pairs.map(\.0))
        #expect(decoded.map(\.value) == pairs.map(\.1))
    }

    @Test(arguments: ["a=%", "a=%4", "a=%zz", "a=%4G", "%=1", "a=%C3", "a=%FF"])
    func rejectsMalformed(body: String) {
        #expect(throws: FormURLEncoding.DecodingError.self) {
            try FormURLEncoding.decode(Array(body.utf8))
        }
    }

    @Test(arguments: [
        ("abc-._~XYZ09", "abc-._~XYZ09"), ("a b", "a+b"), ("a+b", "a%2Bb"),
        ("a:b/c?d&e=f", "a%3Ab%2Fc%3Fd%26e%3Df"),
        ("é", "%C3%A9"),
    ])
    func encodesComponents(text: String, encoded: String) throws {
        #expect(FormURLEncoding.encodeComponent(text) == encoded)
        let roundTrip = try FormURLEncoding.decode(Array("x=\(encoded)".utf8))
        #expect(roundTrip.first?.value == text)
    }

    /// The decoder against a plain reading of WHATWG URL §5.1 (split on `&`, skip empty
    /// sequences, split once on `=`, `+` as space, percent-decode, UTF-8): mutations of a
    /// refresh body with a long value, pairs and errors alike.
    @Test func decodingAgreesWithTheSpecsSteps() {
        func reference(_ body: [UInt8]) -> Result<[String], FormURLEncoding.DecodingError> {
            var out: [String] = []
            let sequences = body.split(
                separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
            for (index, sequence) in sequences.enumerated() {
                let equals = sequence.firstIndex(of: UInt8(ascii: "="))
                for part in [
                    sequence[..<(equals ?? sequence.endIndex)],
                    equals.map { sequence[($0 + 1)...] } ?? [],
                ] {
                    var bytes: [UInt8] = []
                    var rest = part[...]
                    while let byte = rest.popFirst() {
                        if byte == UInt8(ascii: "+") {
                            bytes.append(0x20)
                        } else if byte == UInt8(ascii: "%") {
                            guard rest.count >= 2,
                                let value = UInt8(
                                    String(decoding: rest.prefix(2), as: UTF8.self), radix: 16),
                                rest.prefix(2).allSatisfy({
                                    $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-")
                                })
                            else { return .failure(.malformedPercentEscape(pairIndex: index)) }
                            bytes.append(value)
                            rest = rest.dropFirst(2)
                        } else {
                            bytes.append(byte)
                        }
                    }
                    guard let text = String(validating: bytes, as: UTF8.self) else {
                        return .failure(.invalidUTF8(pairIndex: index))
                    }
                    out.append(text)
                }
            }
            return .success(out)
        }
        var random = SplitMix64(seed: 0xF0_83)
        let base = Array(
            ("grant_type=refresh_token&refresh_token=" + String(repeating: "AbC-_9xyz", count: 40)
                + "&client_id=app").utf8)
        let alphabet = Array("&=&=+%%2F4gé".utf8) + [0x00, 0xFF]
        var failures = 0
        for _ in 0..<20_000 {
            let body = random.mutation(of: base, from: alphabet)
            let decoded = Result { () throws(FormURLEncoding.DecodingError) in
                try FormURLEncoding.decode(body).flatMap { [$0.name, $0.value] }
            }
            #expect(decoded == reference(body))
            if case .failure = decoded { failures += 1 }
        }
        #expect(failures > 1_000 && failures < 19_000)
    }

    /// Every ASCII byte, alone and inside a run, is kept exactly when RFC 3986 §2.3 calls
    /// it unreserved; a space is `+`; the rest are escaped in upper-case hex.
    @Test func everyASCIIByteIsEncodedAsTheRFCSays() {
        let unreserved = Set(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        for byte in UInt8(0)..<128 {
            let expected: String =
                unreserved.contains(byte)
                ? String(UnicodeScalar(byte))
                : byte == 0x20 ? "+" : "%" + String(byte, radix: 16, uppercase: true).leftPadded
            let text = "ab" + String(UnicodeScalar(byte)) + "cd"
            #expect(FormURLEncoding.encodeComponent(text) == "ab" + expected + "cd")
        }
    }

    @Test func encodesPairsInOrder() {
        let body = FormURLEncoding.encode([("grant_type", "authorization_code"), ("code", "a b&c")])
        #expect(
            String(decoding: body, as: UTF8.self) == "grant_type=authorization_code&code=a+b%26c")
    }
}

extension String {
    /// Two hex digits for a byte below 0x10 too.
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
