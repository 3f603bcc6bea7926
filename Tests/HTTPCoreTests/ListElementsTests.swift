import Testing

@testable import HTTPCore

@Suite struct ListElementsTests {
    /// `#element` lists (RFC 9110 §5.6.1): split on commas, OWS trimmed, empties kept.
    @Test(arguments: [
        ("close", ["close"]),
        ("keep-alive, close", ["keep-alive", "close"]),
        (" a ,\tb\t", ["a", "b"]),
        ("a,,b", ["a", "", "b"]),
        ("", [""]),
        (",", ["", ""]),
    ])
    func splitsAndTrims(text: String, elements: [String]) {
        let bytes = Array(text.utf8)
        var found: [String] = []
        bytes.withUnsafeBytes { raw in
            ListElements.forEach(raw, 0..<raw.count) { range in
                found.append(String(decoding: bytes[range], as: UTF8.self))
            }
        }
        #expect(found == elements)
    }
}
