import HTTPClient
import HTTPCore
import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

/// How provider answers to revocation and introspection are read (CONTRACT §8), table by
/// table: the outcome of each status, the RFC 7662 members kept and normalised, GitHub's
/// timestamps, and the RFC 8414 document.
@Suite struct LifecycleAnswerTests {
    static func response(_ status: Int, _ headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: HTTPStatus(code: status, reasonPhrase: ""), headers: HTTPHeaders(headers))
    }

    @Test(arguments: [
        (200, [], ProviderRevocationOutcome.revoked), (204, [], .revoked),
        (400, [], .invalid), (404, [], .invalid), (422, [], .invalid),
        (401, [], .failed(retryAfterSeconds: 30)), (403, [], .failed(retryAfterSeconds: 30)),
        (429, [("Retry-After", "12")], .failed(retryAfterSeconds: 12)),
        // A date in the past is "now" (1 s); a delay past an hour is an hour (CONTRACT §2).
        (503, [("Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT")], .failed(retryAfterSeconds: 1)),
        (500, [("Retry-After", "99999")], .failed(retryAfterSeconds: 3600)),
        (503, [("Retry-After", "soon")], .failed(retryAfterSeconds: 30)),
        (302, [], .failed(retryAfterSeconds: 30)),
    ])
    func revocationOutcomes(
        status: Int, headers: [(String, String)], expected: ProviderRevocationOutcome
    ) {
        #expect(
            ProviderRevocationOutcome.interpret(Self.response(status, headers), style: .rfc7009)
                == expected)
    }

    /// L2P says everything with HTTP 200 and a `status` string.
    @Test func l2pStatusStrings() {
        func answer(_ body: String) -> HTTPResponse {
            HTTPResponse(status: .ok, body: Array(body.utf8))
        }
        #expect(
            ProviderRevocationOutcome.interpret(answer(#"{"status":"ok"}"#), style: .l2p)
                == .revoked)
        #expect(
            ProviderRevocationOutcome.interpret(
                answer(#"{"status":"error: refresh token invalid."}"#), style: .l2p) == .invalid)
        #expect(ProviderRevocationOutcome.interpret(answer("garbage"), style: .l2p) == .invalid)
        #expect(ProviderRevocationOutcome.interpret(answer("garbage"), style: .google) == .revoked)
    }

    @Test func introspectionKeepsOnlyRFC7662MembersWithIntegerTimes() {
        // Built by hand: the parser refuses duplicate members, the normaliser keeps the first.
        let members: [JSONValue.Member] = [
            .init("active", .bool(true)), .init("scope", .string("a b")),
            .init("exp", .string("1900000000")), .init("iat", .number("1.8e9")),
            .init("nbf", .number("-5")), .init("token", .string("t")),
            .init("client_id", .string("c")), .init("client_id", .string("dup")),
            .init("username", .number("7")), .init("aud", .string("x")),
        ]
        guard case .active(let kept) = IntrospectionResult.active(normalising: members) else {
            Issue.record("not active")
            return
        }
        #expect(kept.map(\.name) == ["active", "scope", "exp", "iat", "client_id", "aud"])
        #expect(kept.first { $0.name == "exp" }?.value == .number("1900000000"))
        #expect(kept.first { $0.name == "iat" }?.value == .number("1800000000"))
        #expect(kept.first { $0.name == "client_id" }?.value == .string("c"))
        #expect(
            String(decoding: IntrospectionResult.inactive.response.body, as: UTF8.self)
                == #"{"active":false}"#)
    }

    /// CONTRACT §15: Google's tokeninfo describes tokens issued to any client; one whose
    /// `aud` or `azp` is not this provider's client id is inactive here (before, it was
    /// `active:true` with the other client's id).
    @Test(
        arguments: [
            (#"{"aud":"client-1","azp":"client-1","exp":"2000000000"}"#, true),
            (#"{"azp":"client-1","exp":"2000000000"}"#, true),
            (#"{"aud":"client-1","exp":"2000000000"}"#, true),
            (#"{"aud":"other","azp":"other","exp":"2000000000"}"#, false),
            (#"{"aud":"client-1","azp":"other","exp":"2000000000"}"#, false),
            (#"{"aud":"other","azp":"client-1","exp":"2000000000"}"#, false),
            (#"{"aud":"CLIENT-1","exp":"2000000000"}"#, false),
            (#"{"aud":1,"exp":"2000000000"}"#, false),
            (#"{"aud":["client-1"],"exp":"2000000000"}"#, false),
            (#"{"exp":"2000000000","scope":"email"}"#, false),
        ] as [(String, Bool)])
    func googleTokeninfoForAnotherClientIsInactive(body: String, active: Bool) throws {
        let plain = try GrantEndpointsFixtures.provider()
        let google = Provider(
            name: plain.name, preset: .google, tokenURL: plain.tokenURL,
            clientID: plain.clientID, clientSecret: plain.clientSecret,
            authMethod: plain.authMethod, redirectURI: plain.redirectURI,
            lifecycle: ProviderLifecycle(
                introspectionStyle: .google,
                introspectionURL: try UpstreamURL("https://oauth2.example/tokeninfo")))
        let result = try google.introspectionResult(
            HTTPResponse(status: .ok, body: Array(body.utf8)), now: 1_800_000_000)
        #expect((result != IntrospectionResult.inactive) == active, "\(body)")
        if case .active(let members) = result {
            #expect(members.first { $0.name == "client_id" }?.value == .string("client-1"))
        }
    }

    @Test(arguments: [
        ("2033-05-18T03:33:20Z", 2_000_000_000 as Int?), ("1970-01-01T00:00:00Z", 0),
        ("2024-02-29T12:00:00Z", 1_709_208_000), ("2033-05-18T03:33:20+00:00", nil),
        ("2033-13-18T03:33:20Z", nil), ("2033-05-18 03:33:20Z", nil), ("", nil),
    ])
    func githubTimestamps(text: String, seconds: Int?) {
        #expect(Provider.epochSeconds(iso8601: text) == seconds)
    }

    @Test func metadataListsOnlyWhatTheProviderSupports() throws {
        let plain = try GrantEndpointsFixtures.provider()
        let document = AuthorizationServerMetadata.document(
            for: plain, publicURL: "https://t.example", sandbox: false)
        #expect(document["issuer"] == .string("https://t.example/v1/spotify"))
        #expect(document["token_endpoint"] == .string("https://t.example/v1/spotify/token"))
        for absent in [
            "authorization_endpoint", "revocation_endpoint", "introspection_endpoint",
            "device_authorization_endpoint",
        ] {
            #expect(document[absent] == nil, "\(absent)")
        }
        let sandboxed = AuthorizationServerMetadata.document(
            for: plain, publicURL: "http://127.0.0.1:9", sandbox: true)
        #expect(
            sandboxed["authorization_endpoint"] == .string("http://127.0.0.1:9/sandbox/authorize"))
        #expect(
            sandboxed["token_endpoint_auth_methods_supported"] == .array([.string("none")]))
        #expect(sandboxed["code_challenge_methods_supported"] == .array([.string("S256")]))
    }
}
