import Testing

@testable import TokenSwap

@Suite struct FormURLEncodingTests {
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

    @Test func encodesPairsInOrder() {
        let body = FormURLEncoding.encode([("grant_type", "authorization_code"), ("code", "a b&c")])
        #expect(
            String(decoding: body, as: UTF8.self) == "grant_type=authorization_code&code=a+b%26c")
    }
}
