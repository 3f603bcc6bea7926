import Testing

@testable import HTTPCore

@Suite struct FieldSemanticsTests {
    /// `uri-host [":" port]` (RFC 9112 §3.2, RFC 3986 §3.2.2).
    @Test(arguments: [
        ("example.com", true), ("example.com:8080", true), ("[::1]:443", true), ("", true),
        ("a_b-c~d%20", true), ("a/b", false), ("u@h", false), ("a b", false), ("a?b", false),
        ("a#b", false), ("h\u{E9}", false),
    ])
    func validatesHost(text: String, valid: Bool) {
        let result = Array(text.utf8).withUnsafeBytes {
            FieldSemantics.isValidHost($0, 0..<$0.count)
        }
        #expect(result == valid)
    }
}
