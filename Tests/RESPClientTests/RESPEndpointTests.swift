import RESPClient
import Testing

/// `TOKENSWAP_STATE_URL` (CONTRACT §12): what each form means, what is refused and why,
/// and that the password never shows.
@Suite struct RESPEndpointTests {
    @Test(arguments: [
        ("redis://localhost", false, "localhost", 6379, 0, nil as String?, false),
        ("REDIS://Cache.Example:7000/3", false, "cache.example", 7000, 3, nil, false),
        ("rediss://store:6380/", true, "store", 6380, 0, nil, false),
        ("redis://:pw@10.0.0.1", false, "10.0.0.1", 6379, 0, nil, true),
        ("redis://tokenswap:pw@[::1]:6390/15", false, "::1", 6390, 15, "tokenswap", true),
        ("redis://[fe80::1]", false, "fe80::1", 6379, 0, nil, false),
        ("redis://u%3Ax:p%40w@h:1/1000000", false, "h", 1, 1_000_000, "u:x", true),
        ("redis://a:b@c@host", false, "host", 6379, 0, "a", true),
        ("redis://host:", false, "host", 6379, 0, nil, false),
    ])
    func parses(
        url: String, tls: Bool, host: String, port: Int, database: Int, user: String?,
        password: Bool
    ) throws {
        let endpoint = try RESPEndpoint(url: url)
        #expect(endpoint.usesTLS == tls)
        #expect(endpoint.host == host)
        #expect(endpoint.port == UInt16(port))
        #expect(endpoint.database == database)
        #expect(endpoint.username == user)
        #expect(endpoint.hasPassword == password)
    }

    @Test(arguments: [
        ("http://localhost", "scheme must be redis or rediss"),
        ("redis:/localhost", "scheme must be redis or rediss"),
        ("redis://", "missing host"),
        ("redis://:6379", "missing host"),
        ("redis://host:0", "bad port"),
        ("redis://host:65536", "bad port"),
        ("redis://host:+1", "bad port"),
        ("redis://host:x", "bad port"),
        ("redis://host/db", "database must be a number 0...1000000"),
        ("redis://host/-1", "database must be a number 0...1000000"),
        ("redis://host/1000001", "database must be a number 0...1000000"),
        ("redis://host/1/2", "database must be a number 0...1000000"),
        ("redis://host?db=1", "query and fragment are not supported"),
        ("redis://host#x", "query and fragment are not supported"),
        ("redis://[::1", "unterminated IPv6 literal"),
        ("redis://[::1]x", "bad authority"),
        ("redis://[host]", "bad IPv6 literal"),
        ("redis://ho st", "bad host"),
        ("redis://user@host", "a user needs a password (user:password@)"),
        ("redis://@host", "empty userinfo"),
        ("redis://user:@host", "empty password"),
        ("redis://:p%4@host", "bad percent-encoding in the password"),
        ("redis://u%zz:p@host", "bad percent-encoding in the user"),
    ])
    func refuses(url: String, reason: String) {
        #expect(throws: RESPError.invalidURL(reason: reason)) { try RESPEndpoint(url: url) }
    }

    @Test func aSeparatePasswordJoinsAUserOrStandsAlone() throws {
        let withUser = try RESPEndpoint(url: "redis://tokenswap@host", password: "s")
        #expect(withUser.username == "tokenswap")
        #expect(withUser.hasPassword)
        let alone = try RESPEndpoint(url: "rediss://host", password: "s")
        #expect(alone.username == nil)
        #expect(alone.hasPassword)
    }

    @Test func aPasswordInBothPlacesOrEmptyIsRefused() {
        #expect(
            throws: RESPError.invalidURL(reason: "password given both in the URL and separately")
        ) { try RESPEndpoint(url: "redis://:a@host", password: "b") }
        #expect(throws: RESPError.invalidURL(reason: "empty password")) {
            try RESPEndpoint(url: "redis://host", password: "")
        }
    }

    @Test func theDescriptionNeverShowsThePassword() throws {
        let endpoint = try RESPEndpoint(url: "rediss://tokenswap:hunter2@[::1]:7000/2")
        #expect(endpoint.description == "rediss://tokenswap@[::1]:7000/2 (with password)")
        #expect(!String(reflecting: endpoint).contains("hunter2"))
        #expect(!"\(endpoint)".contains("hunter2"))
        let plain = try RESPEndpoint(url: "redis://host")
        #expect(plain.description == "redis://host:6379/0")
    }

    /// A URL error names what is wrong, never the password it was given.
    @Test func errorsNeverCarryThePassword() {
        for url in ["redis://:hunter2@host:0", "redis://:hunter2@host/x", "redis://:hunter2%zz@h"] {
            do {
                _ = try RESPEndpoint(url: url)
                Issue.record("\(url) was accepted")
            } catch {
                #expect(!"\(error)".contains("hunter2"))
            }
        }
    }
}
