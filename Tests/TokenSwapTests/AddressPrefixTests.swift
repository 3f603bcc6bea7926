import Testing

@testable import TokenSwap

/// CIDR parsing (Transport's IPAddress) and prefix matching, IPv4 and IPv6.
@Suite struct AddressPrefixTests {
    @Test(arguments: [
        ("10.0.0.0/8", "10.255.1.2", true),
        ("10.0.0.0/8", "11.0.0.1", false),
        ("192.168.1.0/24", "192.168.1.77", true),
        ("192.168.1.0/24", "192.168.2.1", false),
        ("172.16.0.0/12", "172.31.255.255", true),
        ("172.16.0.0/12", "172.32.0.0", false),
        ("127.0.0.1", "127.0.0.1", true),
        ("127.0.0.1", "127.0.0.2", false),
        ("127.0.0.1/32", "127.0.0.1", true),
        ("0.0.0.0/0", "8.8.8.8", true),
        ("10.1.2.3/31", "10.1.2.2", true),
        ("10.1.2.3/31", "10.1.2.4", false),
        ("2001:db8::/32", "2001:db8:ffff::1", true),
        ("2001:db8::/32", "2001:db9::1", false),
        ("::1", "::1", true),
        ("::1", "0:0:0:0:0:0:0:1", true),
        ("fe80::/10", "febf::1", true),
        ("fe80::/10", "fec0::1", false),
        // An IPv4 peer on a dual-stack socket is reported IPv4-mapped.
        ("10.0.0.0/8", "::ffff:10.9.8.7", true),
        ("::ffff:10.0.0.0/104", "10.9.8.7", true),
        ("::ffff:10.0.0.0/104", "11.0.0.1", false),
        // Families never match each other.
        ("10.0.0.0/8", "2001:db8::1", false),
        ("::/0", "10.0.0.1", false),
    ])
    func matches(prefix: String, address: String, inside: Bool) throws {
        let parsed = try #require(AddressPrefix(prefix))
        let bytes = try #require(AddressPrefix.parseAddress(address))
        #expect(parsed.contains(bytes) == inside)
    }

    @Test(arguments: [
        "", "10.0.0", "10.0.0.256", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/8/8",
        "10.0.0.0/08x", "2001:db8::/129", "2001:db8:::1", "fe80::1%eth0", "localhost",
        " 10.0.0.1", "::ffff:10.0.0.0/24", "10.0.0.0/1000",
    ])
    func malformedEntriesAreRefused(entry: String) {
        #expect(AddressPrefix(entry) == nil)
    }

    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1"), ("::1", "::1"), ("0:0:0:0:0:0:0:1", "::1"),
        ("::ffff:1.2.3.4", "1.2.3.4"), ("[2001:db8::1]", "2001:db8::1"),
        ("2001:DB8::1", "2001:db8::1"),
    ])
    func addressesHaveOneCanonicalText(input: String, canonical: String) throws {
        let bytes = try #require(AddressPrefix.parseAddress(input))
        #expect(bytes.description == canonical)
    }
}
