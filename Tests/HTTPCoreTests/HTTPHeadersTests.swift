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
        ] as [(String, String, String?)])
    func pathAndQuery(target: String, path: String, query: String?) {
        let request = HTTPRequest(method: .get, target: target)
        #expect(request.path == Substring(path))
        #expect(request.query.map(String.init) == query)
    }
}
