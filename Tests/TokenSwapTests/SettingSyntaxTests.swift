import Testing

@testable import TokenSwap

@Suite struct SettingSyntaxTests {
    @Test(arguments: [
        ("myapp://callback", true), ("https://a.example/cb?x=1", true),
        ("com.example.app:/oauth", true),
        ("urn:ietf:wg:oauth:2.0:oob", true), ("callback", false), ("://x", false),
        ("1app://x", false),
        ("https://a.example/cb#frag", false), ("https://a.example/c b", false), ("myapp:", false),
    ])
    func redirectURI(text: String, valid: Bool) {
        #expect(SettingSyntax.isRedirectURI(text) == valid)
    }

    @Test(arguments: [
        ("*", true), ("https://a.example", true), ("http://localhost:3000", true),
        ("https://a.example/", false), ("a.example", false), ("https://", false),
        ("https://u@a.example", false),
    ])
    func corsOrigin(text: String, valid: Bool) {
        #expect(SettingSyntax.isCORSOrigin(text) == valid)
    }

    @Test(arguments: [
        ("10.0.0.1", true), ("10.0.0.0/8", true), ("0.0.0.0/0", true), ("::1", true),
        ("fd00::/8", true),
        ("2001:db8::/129", false), ("10.0.0.0/33", false), ("10.0.0.0/", false),
        ("10.0.0.0/+8", false),
        ("10.0.0", false), ("host.example", false), ("10.0.0.0/8/8", false),
    ])
    func addressOrCIDR(text: String, valid: Bool) {
        #expect(SettingSyntax.isAddressOrCIDR(text) == valid)
    }

    /// The configuration accepts exactly the entries `TrustedProxies` uses (one parser):
    /// an IPv4-mapped block shorter than the mapped prefix, or a bracketed address, would
    /// be dropped there, so it is refused here.
    @Test(arguments: [
        ("::ffff:10.0.0.0/104", true), ("::ffff:10.0.0.0/96", true), ("::ffff:10.0.0.0/24", false),
        ("::ffff:10.0.0.0/95", false), ("[::1]", false), ("[::1]/128", false), ("::1/128", true),
    ])
    func addressOrCIDRAsTrustedProxiesReadsIt(text: String, valid: Bool) {
        #expect(SettingSyntax.isAddressOrCIDR(text) == valid)
        #expect((TrustedProxies([text]).prefixes.count == 1) == valid)
    }
}
