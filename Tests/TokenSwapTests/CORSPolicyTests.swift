import HTTPCore
import Testing

@testable import TokenSwap

@Suite struct CORSPolicyTests {
    static let policy = CORSPolicy(origins: ["https://app.example", "http://localhost:5173"])

    @Test(arguments: [
        // allow-list, Origin, decision
        (
            ["https://app.example"], "https://app.example",
            CORSDecision.allowed(origin: "https://app.example")
        ),
        (["https://app.example"], "https://app.example:443", .denied),  // exact match only
        (["https://app.example"], "http://app.example", .denied),
        (["https://app.example"], "https://APP.example", .denied),
        (["https://app.example"], "https://evil.example", .denied),
        (["https://app.example"], "null", .denied),
        (["https://app.example"], "*", .denied),
        (
            ["http://localhost:5173"], "http://localhost:5173",
            .allowed(origin: "http://localhost:5173")
        ),
        (["*"], "https://any.example", .allowed(origin: "https://any.example")),  // echoed
        (["*"], "null", .denied),
        (["*"], "*", .denied),
        (["*"], "https://x.example/path", .denied),  // not an origin: never echoed
    ])
    func decision(allowList: [String], origin: String, expected: CORSDecision) throws {
        let policy = try #require(CORSPolicy(origins: allowList))
        #expect(policy.decision(origin: origin) == expected)
        #expect(policy.decision(origin: nil) == .notCrossOrigin)
    }

    @Test func nothingIsAllowedByDefault() {
        #expect(CORSPolicy(origins: []) == nil)
    }

    static func options(origin: String?) -> HTTPRequest {
        var headers = HTTPHeaders([("Access-Control-Request-Method", "POST")])
        if let origin { headers.add(name: "Origin", value: origin) }
        return HTTPRequest(method: .options, target: "/v1/swap", headers: headers)
    }

    @Test func preflightFromAnAllowedOrigin() throws {
        let policy = try #require(Self.policy)
        let response = policy.preflight(Self.options(origin: "https://app.example"))
        #expect(response.status.code == 204)
        #expect(response.headers["Access-Control-Allow-Origin"] == "https://app.example")
        #expect(response.headers["Access-Control-Allow-Methods"] == "POST")
        #expect(response.headers["Access-Control-Allow-Headers"]?.contains("X-Request-Id") == true)
        #expect(response.headers["Access-Control-Allow-Headers"]?.contains("Content-Type") == true)
        #expect(response.headers["Access-Control-Max-Age"] == "600")
        #expect(response.headers["Vary"] == "Origin")
        #expect(!response.headers.contains("Access-Control-Allow-Credentials"))
    }

    @Test func preflightFromAnotherOriginIs403WithoutCORSHeaders() throws {
        let policy = try #require(Self.policy)
        let response = policy.preflight(Self.options(origin: "https://evil.example"))
        #expect(response.status.code == 403)
        #expect(!response.headers.fields.contains { $0.name.hasPrefix("Access-Control") })
        let plain = policy.preflight(Self.options(origin: nil))
        #expect(plain.status.code == 204)
        #expect(plain.headers["Allow"] == "OPTIONS, POST")
        #expect(!plain.headers.fields.contains { $0.name.hasPrefix("Access-Control") })
    }

    @Test(arguments: [
        ("https://app.example", true), ("https://evil.example", false), (nil, false),
    ])
    func actualResponses(origin: String?, decorated: Bool) throws {
        let policy = try #require(Self.policy)
        var headers = HTTPHeaders()
        if let origin { headers.add(name: "Origin", value: origin) }
        let request = HTTPRequest(method: .post, target: "/v1/swap", headers: headers)
        var response = HTTPResponse(status: .ok, headers: TokenResponseHeaders.base)
        policy.decorate(&response, for: request)
        #expect(
            (origin != nil && response.headers["Access-Control-Allow-Origin"] == origin)
                == decorated)
        #expect((response.headers["Vary"] == "Origin") == decorated)
        #expect(response.headers["Access-Control-Allow-Origin"] != "*")
        if !decorated {
            #expect(!response.headers.fields.contains { $0.name.hasPrefix("Access-Control") })
        }
    }
}
