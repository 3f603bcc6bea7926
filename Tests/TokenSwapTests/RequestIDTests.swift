import Testing

@testable import TokenSwap

@Suite struct RequestIDTests {
    @Test(arguments: [
        ("abc-123", true),
        ("0f8fad5b-d9cb-469f-a165-70867728950e", true),
        ("a.b_c~d!e#f$g%h&i'j*k+l^m`n|o", true),
        (String(repeating: "x", count: 128), true),
        (String(repeating: "x", count: 129), false),
        ("", false),
        ("has space", false),
        ("quote\"d", false),
        ("new\nline", false),
        ("comma,separated", false),
        ("semi;colon", false),
        ("tab\there", false),
        ("ünïcode", false),
        ("{json}", false),
        ("a=b", false),
    ])
    func validation(value: String, kept: Bool) {
        #expect((RequestID.accepted(value) == value) == kept)
        #expect((RequestID.resolve(value) == value) == kept)
    }

    @Test func mintedIdsAre128BitHexAndFresh() {
        let ids = (0..<100).map { _ in RequestID.mint() }
        #expect(Set(ids).count == 100)
        for id in ids {
            #expect(id.count == 32)
            #expect(id.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            #expect(RequestID.accepted(id) == id)
        }
        #expect(RequestID.accepted(nil) == nil)
    }
}
