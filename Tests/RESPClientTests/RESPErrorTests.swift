import Testing

@testable import RESPClient

/// What of a server's error reply is kept (CONTRACT §12: no argument, value or password
/// in an error text) and what each error says.
@Suite struct RESPErrorTests {
    @Test(arguments: [
        ("ERR unknown command 'SECRET', with args beginning with: 'token'", "ERR unknown command"),
        ("ERR wrong number of arguments for 'get' command", "ERR wrong number of arguments for"),
        (
            "WRONGTYPE Operation against a key holding the wrong kind of value",
            "WRONGTYPE Operation against a key holding the wrong kind of value"
        ),
        (
            "NOSCRIPT No matching script. Please use EVAL.",
            "NOSCRIPT No matching script. Please use EVAL."
        ),
        ("ERR Error running script: \"x\"", "ERR Error running script"),
        ("'quoted first", "ERR"),
        ("", "ERR"),
        ("ERR bad\u{7}byte\u{e9}", "ERR bad?byte??"),
    ])
    func serverMessagesStopBeforeQuotes(message: String, kept: String) {
        #expect(RESPError.safeServerMessage(message) == kept)
    }

    @Test func serverMessagesAreBounded() {
        let long = "ERR " + String(repeating: "x", count: 500)
        #expect(RESPError.safeServerMessage(long).utf8.count == 120)
    }

    @Test func anAuthenticationReasonHoldingTheSecretKeepsOnlyTheCode() {
        let secret = Array("hunter2".utf8)
        #expect(RESPConnection.scrubbed("WRONGPASS bad hunter2 pair", secret) == "WRONGPASS")
        #expect(
            RESPConnection.scrubbed("WRONGPASS invalid username-password pair", secret)
                == "WRONGPASS invalid username-password pair")
        #expect(RESPConnection.scrubbed("hunter", secret) == "hunter")
    }

    @Test func descriptionsNameTheFailure() {
        #expect(RESPError.timedOut.description == "state store timeout")
        #expect(
            RESPError.authenticationFailed(reason: "WRONGPASS").description
                == "state store authentication failed: WRONGPASS")
        #expect(
            RESPError.server(message: "ERR x").description == "state store error: ERR x")
        #expect(
            RESPError.tls(.hostnameMismatch).description
                == "state store TLS failure: certificate hostname mismatch")
    }
}
