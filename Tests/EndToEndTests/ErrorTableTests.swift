import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every row of CONTRACT §2's error table, against the real binary (except "rate limited
/// by tokenswap itself", which comes with the operations work).
// Serialized: each test starts processes; the whole test run shares a 2-core machine with
// timing-sensitive suites, so the cases of a table go one after another, not all at once.
@Suite(.serialized, .resourceClass(.processes)) struct ErrorTableTests {
    /// How the stub answers, and what the client must see.
    struct ProviderRow: Sendable, CustomStringConvertible {
        let description: String
        let status: Int
        let headers: [(String, String)]
        let body: String
        var mode = "normal"
        var delayMilliseconds = 0
        let expectStatus: Int
        /// nil: the provider's body verbatim.
        let expectError: String?
        var expectRetryAfter: String? = nil
    }

    static let oauthInvalidGrant =
        #"{"error":"invalid_grant","error_description":"Invalid authorization code"}"#
    static let oauthInvalidClient =
        #"{"error":"invalid_client","error_description":"Invalid client"}"#
    static let oauthThrottled = #"{"error":"slow_down","error_description":"Too many requests"}"#

    static let providerRows: [ProviderRow] = [
        ProviderRow(
            description: "400 OAuth error verbatim", status: 400, headers: [],
            body: oauthInvalidGrant, expectStatus: 400, expectError: nil),
        ProviderRow(
            description: "401 invalid_client verbatim", status: 401, headers: [],
            body: oauthInvalidClient, expectStatus: 401, expectError: nil),
        ProviderRow(
            description: "429 plain text, Retry-After seconds", status: 429,
            headers: [("Retry-After", "7"), ("Content-Type", "text/plain")], body: "slow down",
            expectStatus: 429, expectError: "temporarily_unavailable", expectRetryAfter: "7"),
        ProviderRow(
            description: "429 OAuth JSON, Retry-After HTTP-date", status: 429,
            headers: [("Retry-After", "Wed, 21 Oct 2037 07:28:00 GMT")], body: oauthThrottled,
            expectStatus: 429, expectError: nil, expectRetryAfter: "3600"),
        // CONTRACT §2: the client kit once trapped converting this; clamped to an hour.
        ProviderRow(
            description: "429, Retry-After past Int", status: 429,
            headers: [("Retry-After", "99999999999999999999")], body: oauthThrottled,
            expectStatus: 429, expectError: nil, expectRetryAfter: "3600"),
        ProviderRow(
            description: "429, Retry-After 0", status: 429, headers: [("Retry-After", "0")],
            body: oauthThrottled, expectStatus: 429, expectError: nil, expectRetryAfter: "1"),
        ProviderRow(
            description: "429, Retry-After neither delay nor date", status: 429,
            headers: [("Retry-After", "in a while")], body: oauthThrottled, expectStatus: 429,
            expectError: nil, expectRetryAfter: nil),
        ProviderRow(
            description: "500", status: 500, headers: [], body: "oops", expectStatus: 502,
            expectError: "upstream_error"),
        ProviderRow(
            description: "503", status: 503, headers: [], body: "{}", expectStatus: 502,
            expectError: "upstream_error"),
        ProviderRow(
            description: "200 not JSON", status: 200, headers: [("Content-Type", "text/html")],
            body: "<html>hi</html>", expectStatus: 502, expectError: "upstream_error"),
        ProviderRow(
            description: "200 JSON without access_token", status: 200, headers: [],
            body: #"{"token_type":"Bearer"}"#, expectStatus: 502, expectError: "upstream_error"),
        ProviderRow(
            description: "not HTTP at all", status: 200, headers: [], body: "",
            mode: "garbage", expectStatus: 502, expectError: "upstream_error"),
        ProviderRow(
            description: "slower than TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS", status: 200,
            headers: [], body: #"{"access_token":"late","token_type":"Bearer"}"#, mode: "slow",
            delayMilliseconds: 5000, expectStatus: 504, expectError: "upstream_timeout"),
    ]

    @Test(arguments: providerRows)
    func providerAnswer(_ row: ProviderRow) async throws {
        let stack = try await StubStack.start(
            extra: ["TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS": "1"])
        // A sealed token for the refresh half of the row, made while the stub still says yes.
        let swap = try await Exchange.form("/v1/swap", port: stack.port, [("code", "code-ok")])
        let sealed = try #require(swap.string("refresh_token"))
        try await stack.stub.answer(
            status: row.status, headers: row.headers, body: row.body, mode: row.mode,
            delayMilliseconds: row.delayMilliseconds)
        for (path, field, value) in [
            ("/v1/swap", "code", "code-row"), ("/v1/refresh", "refresh_token", sealed),
        ] {
            let answer = try await Exchange.form(path, port: stack.port, [(field, value)])
            #expect(answer.status == row.expectStatus, "\(path)")
            if let error = row.expectError {
                #expect(answer.error == error, "\(path)")
                #expect(answer.string("error_description")?.isEmpty == false)
            } else {
                #expect(answer.body == row.body, "\(path): provider body verbatim")
            }
            #expect(answer.header("Retry-After") == row.expectRetryAfter)
            #expect(answer.header("Content-Type") == "application/json")
            #expect(answer.header("Cache-Control") == "no-store")
        }
        #expect(
            try await stack.finish(secrets: ["code-ok", "code-row", sealed, "stub-refresh"]) == 0)
    }

    /// An HTTP-date `Retry-After` (RFC 9110 §10.2.3) reaches the client as the seconds
    /// left until it, not as the provider's text.
    @Test func aRetryAfterDateBecomesSecondsFromNow() async throws {
        let stack = try await StubStack.start()
        let inTwoMinutes = Date().addingTimeInterval(120)
        let date = Self.imfFixdate(inTwoMinutes)
        try await stack.stub.answer(
            status: 429, headers: [("Retry-After", date)], body: Self.oauthThrottled)
        let answer = try await Exchange.form("/v1/swap", port: stack.port, [("code", "code-d")])
        #expect(answer.status == 429)
        let seconds = try #require(answer.header("Retry-After").flatMap { Int($0) })
        // Up to 120, or 121 when the service's `time()` (the kernel's coarse clock, a tick
        // behind) still read the second before the test's `Date()` had just passed.
        #expect((100...121).contains(seconds), "\(seconds)")
        #expect(try await stack.finish(secrets: ["code-d"]) == 0)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for `date`.
    static func imfFixdate(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Input tokenswap refuses itself: the provider is never called.
    struct InputRow: Sendable, CustomStringConvertible {
        let description: String
        let raw: String
        let expectStatus: Int
        let expectError: String?
    }

    static func post(_ path: String, _ contentType: String?, _ body: String) -> String {
        var head = "POST \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        return head + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }

    static let form = "application/x-www-form-urlencoded"

    static let inputRows: [InputRow] = [
        InputRow(
            description: "code missing", raw: post("/v1/swap", form, "client_id=x"),
            expectStatus: 400, expectError: "invalid_request"),
        InputRow(
            description: "code empty", raw: post("/v1/swap", form, "code="), expectStatus: 400,
            expectError: "invalid_request"),
        InputRow(
            description: "code (null)", raw: post("/v1/swap", form, "code=%28null%29"),
            expectStatus: 400, expectError: "invalid_request"),
        InputRow(
            description: "code (null) unencoded", raw: post("/swap", form, "code=(null)"),
            expectStatus: 400, expectError: "invalid_request"),
        InputRow(
            description: "bare POST", raw: post("/v1/swap", nil, ""), expectStatus: 400,
            expectError: "invalid_request"),
        InputRow(
            description: "refresh_token missing", raw: post("/v1/refresh", form, ""),
            expectStatus: 400, expectError: "invalid_request"),
        InputRow(
            description: "refresh_token (null)",
            raw: post("/refresh", form, "refresh_token=(null)"),
            expectStatus: 400, expectError: "invalid_request"),
        InputRow(
            description: "refresh_token empty in JSON",
            raw: post("/v1/refresh", "application/json", #"{"refresh_token":""}"#),
            expectStatus: 400, expectError: "invalid_request"),
        InputRow(
            description: "malformed form", raw: post("/v1/swap", form, "code=%zz"),
            expectStatus: 400, expectError: "invalid_request"),
        InputRow(
            description: "malformed JSON", raw: post("/v1/swap", "application/json", #"{"code":"#),
            expectStatus: 400, expectError: "invalid_request"),
        InputRow(
            description: "unopenable sealed token",
            raw: post(
                "/v1/refresh", form, "refresh_token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
            expectStatus: 400, expectError: "invalid_grant"),
        InputRow(
            description: "wrong Content-Type", raw: post("/v1/swap", "text/plain", "code=abc"),
            expectStatus: 415, expectError: "invalid_request"),
        InputRow(
            description: "wrong Content-Type on refresh",
            raw: post("/v1/refresh", "multipart/form-data; boundary=x", "--x--"),
            expectStatus: 415, expectError: "invalid_request"),
        InputRow(
            description: "body too large",
            raw:
                "POST /v1/swap HTTP/1.1\r\nHost: x\r\nContent-Type: \(form)\r\nContent-Length: 70000\r\n\r\n",
            expectStatus: 413, expectError: nil),
        InputRow(
            description: "headers too large",
            raw: "POST /v1/swap HTTP/1.1\r\nHost: x\r\n"
                + (0..<30).map { "X-Filler-\($0): \(String(repeating: "f", count: 900))\r\n" }
                .joined() + "Content-Length: 0\r\n\r\n",
            expectStatus: 431, expectError: nil),
        InputRow(
            description: "unknown path",
            raw: "GET /v2/nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            expectStatus: 404, expectError: "not_found"),
        InputRow(
            description: "unknown provider", raw: post("/v1/nope/swap", form, "code=abc"),
            expectStatus: 404, expectError: "not_found"),
        InputRow(
            description: "wrong method",
            raw: "GET /v1/swap HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            expectStatus: 405, expectError: "method_not_allowed"),
    ]

    /// One tokenswap and stub for the whole table: each row is one request.
    @Test func inputTokenswapRefusesItself() async throws {
        let stack = try await StubStack.start()
        for row in Self.inputRows {
            let answer = try await Exchange.send(Array(row.raw.utf8), port: stack.port)
            #expect(answer.status == row.expectStatus, "\(row.description)")
            if let error = row.expectError {
                #expect(answer.error == error, "\(row.description)")
            }
            if row.expectStatus == 405 {
                #expect(answer.header("Allow") == "POST", "\(row.description)")
            }
            if row.expectError == "invalid_request" || row.expectError == "invalid_grant" {
                #expect(answer.header("Cache-Control") == "no-store", "\(row.description)")
            }
        }
        #expect(try await stack.stub.received().isEmpty)
        #expect(try await stack.finish(secrets: []) == 0)
    }

    /// A port nothing listens on and nothing else can take while the test runs: bound but
    /// never listening, so a connect is refused (a closed port could be reused by another
    /// test's server in between). Close the returned descriptor at the end.
    static func refusingPort() throws -> (port: UInt16, descriptor: Int32) {
        let (descriptor, port) = try Loopback.bind()
        return (port, descriptor)
    }

    @Test func unreachableProviderIs502UpstreamUnreachable() async throws {
        let deployment = Deployment()
        let keys = Deployment.newKey("A")
        let (port, descriptor) = try Self.refusingPort()
        defer { close(descriptor) }
        let server = try await TokenSwapProcess.serve(
            environment: deployment.environment(
                tokenURL: "http://127.0.0.1:\(port)/api/token", keys: keys))
        let answer = try await Exchange.form("/v1/swap", port: server.port, [("code", "code-u")])
        #expect(answer.status == 502)
        #expect(answer.error == "upstream_unreachable")
        #expect(try await server.stop() == 0)
        expectNoSecrets(
            in: [server.output], [deployment.clientSecret, "code-u"] + Deployment.keyMaterial(keys))
    }

    /// TLS to the stub: trusted through TOKENSWAP_CA_FILE it works; with a CA that did not
    /// sign the stub's certificate it is 502 upstream_unreachable.
    @Test(arguments: [true, false])
    func tlsProvider(trusted: Bool) async throws {
        let stub = try await ProviderStub.start(tls: true)
        let pki = try await offPool { TestPKI.shared }
        let deployment = Deployment()
        let keys = Deployment.newKey("A")
        let server = try await TokenSwapProcess.serve(
            environment: deployment.environment(
                tokenURL: stub.tokenURL(), keys: keys,
                extra: ["TOKENSWAP_CA_FILE": trusted ? pki.caFile : pki.otherCAFile]))
        let answer = try await Exchange.form("/v1/swap", port: server.port, [("code", "code-tls")])
        if trusted {
            #expect(answer.status == 200)
            #expect(answer.string("access_token") == "stub-access")
            let received = try await stub.received()
            #expect(received.count == 1)
            #expect(
                received.first?.header("Authorization")
                    == UpstreamRequestTests.basic(Deployment.clientID, deployment.clientSecret))
        } else {
            #expect(answer.status == 502)
            #expect(answer.error == "upstream_unreachable")
            #expect(try await stub.received().isEmpty)
        }
        #expect(try await server.stop() == 0)
        expectNoSecrets(
            in: [server.output, stub.errorOutput],
            [deployment.clientSecret, "code-tls", "stub-access", "stub-refresh"]
                + Deployment.keyMaterial(keys))
    }
}
