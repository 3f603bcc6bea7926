import HTTPCore
import Testing

@Suite struct HTTPGrammarTests {
    /// tchar (RFC 9110 §5.6.2), spelled out as the RFC lists it.
    private static let tchar = Set(
        ("!#$%&'*+-.^_`|~" + "0123456789" + "abcdefghijklmnopqrstuvwxyz"
            + "ABCDEFGHIJKLMNOPQRSTUVWXYZ").utf8)

    /// Every byte, against the RFC's list: the one table the server, the client and the
    /// product's request ids share.
    @Test(arguments: 0...255)
    func tokenTableIsTheRFCList(byte: Int) {
        let byte = UInt8(byte)
        #expect(HTTPGrammar.isToken(byte) == Self.tchar.contains(byte))
    }
}
