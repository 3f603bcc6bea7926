import Testing

@testable import TokenSwap

/// RFC 3986 §6.2.2–6.2.3 normalisation of `htu` and of the request's own URI (CONTRACT
/// §13).
@Suite struct DPoPTargetURITests {
    @Test(arguments: [
        ("HTTPS://Example.COM/a", "https://example.com/a"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("http://example.com:80/a", "http://example.com/a"),
        ("http://example.com:443/a", "http://example.com:443/a"),
        ("https://example.com:0443/a", "https://example.com/a"),
        ("https://example.com", "https://example.com/"),
        ("https://example.com:/a", "https://example.com/a"),
        ("https://example.com/%7euser/%2f/%41", "https://example.com/~user/%2F/A"),
        ("https://example.com/a/./b/../c", "https://example.com/a/c"),
        ("https://example.com/a/b/..", "https://example.com/a/"),
        ("https://example.com/../../a", "https://example.com/a"),
        ("https://example.com/%2E%2E/a", "https://example.com/a"),
        ("https://[::1]:8443/a?x#y", "https://[::1]:8443/a"),
        ("https://[::1]:443/", "https://[::1]/"),
        // A host already in lower case with a written port is kept as it came, unless the
        // port is the default or written with a leading zero.
        ("http://example.com:8080/a", "http://example.com:8080/a"),
        ("http://example.com:080/a", "http://example.com/a"),
        ("http://example.com:0/a", "http://example.com:0/a"),
        ("http://example.com:00/a", "http://example.com:0/a"),
        ("https://example.com:8443/a.b/c", "https://example.com:8443/a.b/c"),
        ("https://example.com/a%7E", "https://example.com/a~"),
    ])
    func normalises(_ pair: (String, String)) {
        #expect(DPoPTargetURI(pair.0)?.description == pair.1)
    }

    @Test(arguments: [
        "ftp://example.com/a", "example.com/a", "https:///a", "https://u@example.com/a",
        "https://example.com:99999/a", "https://example.com:8o/a", "https://example.com/%zz",
        "https://example.com/%4", "https://example.com/a b", "https://exa mple.com/",
        "https://[::1/a", "https://[::1]x/a", "https://example.com:123456/",
        // A `:` inside a host that is no IP literal (found by FuzzDPoP: its normal form
        // did not parse back), and delimiters in a host.
        "https://a:b:/x", "https://EyJ0eX:iOiJk:/a", "https://[]/", "https://[::g]/",
        "https://a[b]/", "https://a\\b/",
    ])
    func refuses(_ text: String) {
        #expect(DPoPTargetURI(text) == nil)
    }

    @Test func requestTargetsKeepTheirPathAndDropTheQuery() {
        #expect(
            DPoPTargetURI.path(ofRequestTarget: "/v1/spotify/refresh?x=1") == "/v1/spotify/refresh")
        #expect(DPoPTargetURI.path(ofRequestTarget: "/refresh") == "/refresh")
        // A target that is a slice of a longer text: the query is found from its start.
        let text = "/x?/v1/spotify/refresh#frag"
        #expect(DPoPTargetURI.path(ofRequestTarget: text.dropFirst(3)) == "/v1/spotify/refresh")
        #expect(DPoPTargetURI.path(ofRequestTarget: text.dropFirst(3).prefix(7)) == "/v1/spo")
        #expect(DPoPTargetURI.path(ofRequestTarget: text.prefix(2)) == "/x")
        #expect(DPoPTargetURI.path(ofRequestTarget: "?q") == "")
        #expect(DPoPTargetURI.path(ofRequestTarget: "") == "")
        let made = DPoPTargetURI(scheme: "HTTP", authority: "LocalHost:8080", path: "/swap")
        #expect(made?.description == "http://localhost:8080/swap")
        #expect(made == DPoPTargetURI("http://localhost:8080/./swap"))
    }

    /// A proof's `htu` matches as text only when it is the normal form byte for byte; any
    /// other spelling goes through the comparison of parsed forms.
    @Test func spelledOnlyAsTheNormalForm() throws {
        let target = try #require(
            DPoPTargetURI(scheme: "https", authority: "tokens.example", path: "/v1/refresh"))
        #expect(target.isSpelled("https://tokens.example/v1/refresh"))
        for text in [
            "https://Tokens.example/v1/refresh", "https://tokens.example:443/v1/refresh",
            "https://tokens.example/v1/refresH", "http://tokens.example/v1/refresh",
            "https://tokens.example/v1/refresh/", "https://tokens.example/v1/refres",
            "https:/tokens.example//v1/refresh", "", "https://tokens.examplé/v1/refresh",
        ] {
            #expect(!target.isSpelled(text))
        }
        #expect(DPoPTargetURI("https://Tokens.example:443/v1/refresh") == target)
    }

    /// Normalising is idempotent: the normal form parses to itself.
    @Test func normalFormIsAFixedPoint() {
        for text in [
            "HTTPS://A.example:443/x/%7e/../y/%2f", "http://b.example:81", "https://[::1]/./",
        ] {
            let once = DPoPTargetURI(text)?.description
            #expect(once != nil)
            #expect(once.flatMap(DPoPTargetURI.init)?.description == once)
        }
    }
}
