import Testing
import Transport

@Suite struct SocketAddressTests {
    @Test(arguments: [
        ("127.0.0.1", UInt16(80), "127.0.0.1:80"),
        ("::1", 8080, "[::1]:8080"),
        ("0.0.0.0", 0, "0.0.0.0:0"),
        ("2001:db8::1", 443, "[2001:db8::1]:443"),
    ])
    func parsesAndPrints(text: String, port: UInt16, printed: String) throws {
        let address = try SocketAddress(ipAddress: text, port: port)
        #expect(address.description == printed)
        #expect(address.port == port)
    }

    @Test(arguments: ["localhost", "1.2.3", "::g", "", "127.0.0.1 "])
    func refusesNonNumericHosts(text: String) {
        #expect(throws: TransportError.invalidAddress(text)) {
            try SocketAddress(ipAddress: text, port: 1)
        }
    }

    @Test func resolvesLocalhost() throws {
        let found = try SocketAddress.resolve(host: "localhost", port: 9)
        #expect(found.contains { $0.host == "127.0.0.1" || $0.host == "::1" })
        #expect(found.allSatisfy { $0.port == 9 })
    }
}
