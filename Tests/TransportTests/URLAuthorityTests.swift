import Testing
import Transport

/// One authority rule for the providers' and the store's URLs (RFC 3986 §3.2.2,
/// §3.2.3).
@Suite struct URLAuthorityTests {
    @Test(
        arguments: [
            ("Example.COM:8443", "example.com", 8443 as UInt16?),
            ("host", "host", nil),
            ("host:", "host", nil),
            ("127.0.0.1:80", "127.0.0.1", 80),
            ("[::1]", "::1", nil),
            ("[::1]:", "::1", nil),
            ("[FE80::1]:65535", "fe80::1", 65535),
            ("h:1", "h", 1),
        ] as [(String, String, UInt16?)])
    func splitsHostAndPort(authority: String, host: String, port: UInt16?) throws {
        let split = try URLAuthority.split(authority[...])
        #expect(split.host == host)
        #expect(split.port == port)
    }

    @Test(arguments: [
        ("", "missing host"),
        (":80", "missing host"),
        ("[::1", "unterminated IPv6 literal"),
        ("[::1]x", "bad authority"),
        ("[host]", "bad IPv6 literal"),
        ("[]", "bad IPv6 literal"),
        ("ho st", "bad host"),
        ("a%41", "bad host"),
        ("[fe80::1%25eth0]", "bad host"),
        ("a[b", "bad host"),
        ("a]b:1", "bad host"),
        ("h\u{7F}", "bad host"),
        ("host:0", "bad port"),
        ("host:65536", "bad port"),
        ("host:99999999999999999999999", "bad port"),
        ("host:+1", "bad port"),
        ("host:-1", "bad port"),
        ("host:x", "bad port"),
    ])
    func refuses(authority: String, reason: String) {
        #expect(throws: URLAuthority.Invalid(reason: reason)) {
            try URLAuthority.split(authority[...])
        }
    }
}
