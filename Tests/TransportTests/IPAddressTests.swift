import Testing
import Transport

/// The one IP text parser and printer (Transport's `IPAddress`).
@Suite struct IPAddressTests {
    @Test(arguments: [
        ("127.0.0.1", 4, "127.0.0.1"),
        ("0.0.0.0", 4, "0.0.0.0"),
        ("::1", 16, "::1"),
        ("0:0:0:0:0:0:0:1", 16, "::1"),
        ("2001:DB8::1", 16, "2001:db8::1"),
        ("::ffff:1.2.3.4", 16, "::ffff:1.2.3.4"),
        ("fe80:0:0:0:0:0:0:0", 16, "fe80::"),
    ])
    func parsesToOneCanonicalText(text: String, byteCount: Int, canonical: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.bytes.count == byteCount)
        #expect(address.isIPv4 == (byteCount == 4))
        #expect(address.description == canonical)
        #expect(IPAddress(bytes: address.bytes) == address)
    }

    @Test(arguments: [
        "", "localhost", "1.2.3", "10.0.0.256", "::g", "2001:db8:::1", "[::1]", "fe80::1%eth0",
        " 10.0.0.1", "10.0.0.1 ", "10.0.0.1:80", "10.0.0.0/8", String(repeating: "1", count: 65),
    ])
    func refusesWhatIsNotAnAddress(text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test(arguments: [
        [], [1, 2, 3], [UInt8](repeating: 0, count: 5), [UInt8](repeating: 0, count: 17),
    ])
    func refusesOtherByteCounts(bytes: [UInt8]) {
        #expect(IPAddress(bytes: bytes) == nil)
    }

    @Test(arguments: [
        ("::ffff:10.1.2.3", "10.1.2.3"),
        ("::ffff:0.0.0.0", "0.0.0.0"),
        ("10.1.2.3", "10.1.2.3"),
        ("::1", "::1"),
        ("::fffe:10.1.2.3", "::fffe:a01:203"),
        ("1::ffff:10.1.2.3", "1::ffff:a01:203"),
    ])
    func unmapsIPv4MappedAddresses(text: String, unmapped: String) throws {
        #expect(try #require(IPAddress(text)).unmapped.description == unmapped)
    }

    @Test(arguments: [
        ("2001:db8:1:2:3:4:5:6", 64, "2001:db8:1:2::"),
        ("2001:db8:1:2:3:4:5:6", 48, "2001:db8:1::"),
        ("2001:db8:1:2:3:4:5:6", 60, "2001:db8:1::"),
        ("2001:db8:1:ff:3:4:5:6", 60, "2001:db8:1:f0::"),
        ("2001:db8:1:2:3:4:5:6", 128, "2001:db8:1:2:3:4:5:6"),
        ("2001:db8:1:2:3:4:5:6", 0, "::"),
        ("10.1.2.3", 8, "10.0.0.0"),
        ("10.1.2.3", 31, "10.1.2.2"),
    ])
    func masksToAPrefix(text: String, length: Int, network: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.masked(toPrefixLength: length).description == network)
    }

    @Test(arguments: [
        ("10.0.0.0", "10.255.1.2", 8, true),
        ("10.0.0.0", "11.0.0.1", 8, false),
        ("10.1.2.3", "10.1.2.2", 31, true),
        ("10.1.2.3", "10.1.2.4", 31, false),
        ("0.0.0.0", "8.8.8.8", 0, true),
        ("fe80::", "febf::1", 10, true),
        ("fe80::", "fec0::1", 10, false),
        ("::", "10.0.0.1", 0, false),
        ("10.0.0.0", "2001:db8::1", 0, false),
    ])
    func sharesAPrefixWithinOneFamily(network: String, other: String, length: Int, shares: Bool)
        throws
    {
        let a = try #require(IPAddress(network))
        let b = try #require(IPAddress(other))
        #expect(a.sharesPrefix(with: b, length: length) == shares)
    }
}
