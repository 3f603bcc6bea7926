import Testing

@testable import HTTPCore

@Suite struct ChunkExtensionStateTests {
    /// chunk-ext after the first `;` (RFC 9112 §7.1.1): whether the line may end there.
    @Test(arguments: [
        ("a", true), ("a=b", true), ("a = b ", true), ("a=\"q\\\"x\"", true), ("a;b=c", true),
        ("", false), ("a=", false), ("a=\"open", false), ("a=\"x\\", false),
    ])
    func mayEndAfter(text: String, mayEnd: Bool) throws {
        var state = ChunkExtensionState.beforeName
        for byte in text.utf8 { state = try state.next(byte) }
        #expect(state.mayEnd == mayEnd)
    }

    @Test(arguments: ["a b", "=b", "a==b", "a=b c", "a=\u{0}", "a=\"\u{1}\"", "a=(b)"])
    func refuses(text: String) {
        #expect(throws: HTTPParseError.invalidChunkExtension) {
            var state = ChunkExtensionState.beforeName
            for byte in text.utf8 { state = try state.next(byte) }
        }
    }
}
