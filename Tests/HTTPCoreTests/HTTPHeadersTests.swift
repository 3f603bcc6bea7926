import HTTPCore
import Testing

@Suite struct HTTPHeadersTests {
    @Test func lookupIsCaseInsensitiveAndKeepsDuplicates() {
        let headers = HTTPHeaders([("Content-Length", "5"), ("content-length", "6"), ("Host", "a")])
        #expect(headers["CONTENT-LENGTH"] == "5")
        #expect(headers.values("content-length") == ["5", "6"])
        #expect(headers["host"] == "a")
        #expect(headers["missing"] == nil)
    }

    @Test func replaceOrAddLeavesOneField() {
        var headers = HTTPHeaders([("A", "1"), ("a", "2"), ("B", "3")])
        headers.replaceOrAdd(name: "A", value: "4")
        #expect(headers.values("a") == ["4"])
        #expect(headers.count == 2)
        // A name not there is appended, the others kept in order, the shared original
        // untouched.
        let shared = headers
        headers.replaceOrAdd(name: "c", value: "5")
        #expect(
            headers.fields == [
                .init(name: "B", value: "3"), .init(name: "A", value: "4"),
                .init(name: "c", value: "5"),
            ])
        #expect(shared.count == 2)
        var received = HTTPHeaders(
            received: Array("A: 1\r\nB: 2\r\n".utf8),
            ranges: [FieldRange(name: 0..<1, value: 3..<4), FieldRange(name: 6..<7, value: 9..<10)])
        received.replaceOrAdd(name: "C", value: "3")
        received.replaceOrAdd(name: "a", value: "4")
        #expect(
            received.fields == [
                .init(name: "B", value: "2"), .init(name: "C", value: "3"),
                .init(name: "a", value: "4"),
            ])
    }

    /// A value read as bytes is the received head's bytes as they came (obs-text not
    /// replaced, as `values` does), or a built field's UTF-8; every field of the name.
    @Test func valueBytesAreTheFieldsOwnBytes() {
        let head = Array("DPoP: a.b".utf8) + [0xFF] + Array("c\r\nX: 1\r\ndpop: d\r\n".utf8)
        let ranges = [
            FieldRange(name: 0..<4, value: 6..<11), FieldRange(name: 13..<14, value: 16..<17),
            FieldRange(name: 19..<23, value: 25..<26),
        ]
        let received = HTTPHeaders(received: head, ranges: ranges)
        #expect(
            received.valueBytes("DPOP").map(Array.init) == [
                Array("a.b".utf8) + [0xFF, 0x63], [0x64],
            ])
        #expect(received.valueBytes("missing").isEmpty)
        #expect(received.values("x") == ["1"])
        let built = HTTPHeaders([("DPoP", "a.b"), ("X", "1"), ("dpop", "é")])
        #expect(built.valueBytes("dpop").map(Array.init) == [Array("a.b".utf8), Array("é".utf8)])
    }

    /// `onlyValue` is `values` when that holds exactly one value, else nil, for received
    /// and built fields alike: names of every length and case, absent, once, twice.
    @Test func onlyValueIsTheOneValueOfAFieldSentOnce() {
        let text = "Host: a\r\nX-Host: b\r\nhost2: c\r\nDup: 1\r\nDUP: 2\r\nO: \u{FF}x\r\n"
        var ranges: [FieldRange] = []
        var offset = 0
        for line in text.split(separator: "\r\n") {
            let bytes = Array(line.utf8)
            let colon = bytes.firstIndex(of: UInt8(ascii: ":"))!
            ranges.append(
                FieldRange(
                    name: offset..<(offset + colon),
                    value: (offset + colon + 2)..<(offset + bytes.count)))
            offset += bytes.count + 2
        }
        let received = HTTPHeaders(received: Array(text.utf8), ranges: ranges)
        let built = HTTPHeaders(received.fields.map { ($0.name, $0.value) })
        for headers in [received, built] {
            for name in [
                "host", "HOST", "x-host", "Host2", "dup", "Dup", "o", "missing", "Hos", "",
                "X-Host ",
            ] {
                let values = headers.values(name)
                #expect(headers.onlyValue(name) == (values.count == 1 ? values[0] : nil))
            }
        }
        #expect(received.onlyValue("o") == "\u{FF}x")
        #expect(received.onlyValue("host") == "a" && received.onlyValue("dup") == nil)
    }

    @Test func namesMatchOnlyAsciiCaseFolds() {
        #expect(HTTPHeaders.namesMatch("X-Y", "x-y"))
        #expect(!HTTPHeaders.namesMatch("X-Y", "x-z"))
        #expect(!HTTPHeaders.namesMatch("X-Y", "x-y "))
    }
}

@Suite struct HTTPRequestTests {
    @Test(
        arguments: [
            ("/v1/swap", "/v1/swap", nil),
            ("/v1/swap?x=1&y", "/v1/swap", "x=1&y"),
            ("http://example.com/healthz?a", "/healthz", "a"),
            ("http://example.com", "/", nil),
            ("https://example.com:8443/a/b?c?d", "/a/b", "c?d"),
            ("/?", "/", ""),
            ("/caf\u{E9}/\u{1F600}?q=\u{E9}", "/caf\u{E9}/\u{1F600}", "q=\u{E9}"),
            ("/e\u{301}?x", "/e\u{301}", "x"),
        ] as [(String, String, String?)])
    func pathAndQuery(target: String, path: String, query: String?) {
        let request = HTTPRequest(method: .get, target: target)
        #expect(request.path == Substring(path))
        #expect(request.query.map(String.init) == query)
    }
}
