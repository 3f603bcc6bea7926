import Sealing
import Testing

@Suite struct TrimmingTests {
    @Test(arguments: [
        ("", ""), ("a", "a"), ("  a  ", "a"), ("\t\r\na b\r\n", "a b"), ("   ", ""),
        ("\u{A0}x\u{2028}", "x"), ("a\u{3000}", "a"), ("\u{200B}a", "\u{200B}a"),
    ])
    func trimsWhitespaceOnly(text: String, trimmed: String) {
        #expect(text.trimmingWhitespace() == trimmed)
        #expect(Substring(text).trimmingWhitespace() == trimmed)
    }

    @Test(arguments: [
        ("--a-b--", "a-b"), ("----", ""), ("a", "a"), ("", ""), ("-é-", "é"),
    ])
    func trimsWhatThePredicatePicks(text: String, trimmed: String) {
        #expect(text.trimmed(while: { $0 == "-" }) == Substring(trimmed))
    }
}
