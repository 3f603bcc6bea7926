import Foundation
import Testing

/// `POST /v1/<name>/token` (CONTRACT §8): one RFC 6749 token endpoint whose `grant_type`
/// picks the swap or the refresh path (the provider sees exactly what `/v1/swap` and
/// `/v1/refresh` send), and its refusals, which never reach the provider.
@Suite(.serialized, .resourceClass(.processes)) struct TokenEndpointTests {
    @Test func grantTypesDispatchToTheSwapAndRefreshPaths() async throws {
        // Off: the replay window (CONTRACT §12, RefreshReplayTests) would answer this
        // test's repeats of one token without the provider calls it checks.
        let stack = try await StubStack.start(extra: ["TOKENSWAP_REFRESH_REPLAY_SECONDS": "0"])
        try await stack.stub.answerTokens([
            "access_token": "at-te-1", "token_type": "Bearer", "expires_in": "3600",
            "refresh_token": "rt-raw-te",
        ])
        let swap = try await Exchange.form(
            "/v1/token", port: stack.port,
            [
                ("grant_type", "authorization_code"), ("code", "code-te"),
                ("redirect_uri", Deployment.redirectURI), ("code_verifier", "verifier-te"),
                ("client_id", Deployment.clientID),
            ])
        #expect(swap.status == 200)
        #expect(swap.json?["expires_in"] as? Int == 3600)
        #expect(swap.header("Cache-Control") == "no-store")
        let sealed = try #require(swap.string("refresh_token"))
        #expect(sealed != "rt-raw-te")

        try await stack.stub.answerTokens([
            "access_token": "at-te-2", "token_type": "Bearer", "expires_in": 3600,
        ])
        let refresh = try await Exchange.form(
            "/v1/spotify/token", port: stack.port,
            [("grant_type", "refresh_token"), ("refresh_token", sealed)])
        #expect(refresh.status == 200)
        #expect(refresh.string("refresh_token") == sealed)

        // A JSON body too, as on /v1/refresh.
        let json = try await Exchange.request(
            "POST", "/v1/token", port: stack.port,
            headers: [("Content-Type", "application/json")],
            body: #"{"grant_type":"refresh_token","refresh_token":"\#(sealed)"}"#)
        #expect(json.status == 200)

        // A dead sealed token is invalid_grant without a provider call, as on /v1/refresh.
        let dead = try await Exchange.form(
            "/v1/token", port: stack.port,
            [("grant_type", "refresh_token"), ("refresh_token", "not-sealed")])
        #expect(dead.status == 400)
        #expect(dead.error == "invalid_grant")

        let received = try await stack.stub.received()
        try #require(received.count == 3)
        #expect(
            received[0].form == [
                "grant_type": "authorization_code", "code": "code-te",
                "redirect_uri": Deployment.redirectURI, "code_verifier": "verifier-te",
            ])
        #expect(received[0].target == "/api/token")
        for request in received[1...] {
            #expect(request.form == ["grant_type": "refresh_token", "refresh_token": "rt-raw-te"])
        }
        #expect(
            try await stack.finish(secrets: [
                "code-te", "verifier-te", "at-te-1", "at-te-2", "rt-raw-te", sealed,
            ]) == 0)
    }

    /// The device grant through the one token endpoint (as a standard client polls):
    /// pending, then the tokens once the user approved, as `/device/token` answers.
    @Test func theDeviceGrantPollsThroughTheTokenEndpoint() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let code = try await DeviceFlow.requestCode(server.port)
        let sealed = try #require(code.string("device_code"))
        let userCode = try #require(code.string("user_code"))
        let poll = {
            try await Exchange.form(
                "/v1/token", port: server.port,
                [
                    ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                    ("device_code", sealed),
                ])
        }
        let pending = try await poll()
        #expect(pending.status == 400)
        #expect(pending.error == "authorization_pending")

        #expect(try await DeviceFlow.decide(server.port, userCode: userCode).status == 200)
        try await DeviceFlow.wait(seconds: 1)
        let tokens = try await poll()
        #expect(tokens.status == 200, "\(tokens)")
        #expect(tokens.string("access_token")?.hasPrefix("sba-") == true)
        let refreshToken = try #require(tokens.string("refresh_token"))
        #expect(!refreshToken.hasPrefix("sbr-"), "the refresh token is sealed")
        #expect(try await server.stop() == 0)
    }

    @Test func refusalsNeverReachTheProvider() async throws {
        let stack = try await StubStack.start()
        let basicWrong = "Basic " + Data("someone-else:".utf8).base64EncodedString()
        let cases:
            [(fields: [(String, String)], headers: [(String, String)], status: Int, error: String)] =
                [
                    (
                        [
                            ("grant_type", "authorization_code"), ("code", "c"),
                            ("client_id", "someone-else"),
                        ], [], 401, "invalid_client"
                    ),
                    (
                        [("grant_type", "refresh_token"), ("refresh_token", "r")],
                        [("Authorization", basicWrong)], 401, "invalid_client"
                    ),
                    ([("code", "c")], [], 400, "invalid_request"),
                    ([("grant_type", ""), ("code", "c")], [], 400, "invalid_request"),
                    (
                        [("grant_type", "password"), ("username", "u"), ("password", "p")], [], 400,
                        "unsupported_grant_type"
                    ),
                    ([("grant_type", "client_credentials")], [], 400, "unsupported_grant_type"),
                    ([("grant_type", "authorization_code")], [], 400, "invalid_request"),
                    ([("grant_type", "refresh_token")], [], 400, "invalid_request"),
                    (
                        [("grant_type", "refresh_token"), ("grant_type", "authorization_code")], [],
                        400, "invalid_request"
                    ),
                ]
        for refusal in cases {
            let body = refusal.fields.map { "\(Exchange.encode($0.0))=\(Exchange.encode($0.1))" }
                .joined(separator: "&")
            let answer = try await Exchange.request(
                "POST", "/v1/spotify/token", port: stack.port,
                headers: [("Content-Type", "application/x-www-form-urlencoded")] + refusal.headers,
                body: body)
            #expect(answer.status == refusal.status, "\(refusal.fields): \(answer)")
            #expect(answer.error == refusal.error, "\(refusal.fields)")
            #expect(answer.header("Cache-Control") == "no-store")
            #expect((answer.header("WWW-Authenticate") != nil) == (refusal.status == 401))
        }
        #expect(try await stack.stub.received().isEmpty)
        #expect(try await stack.finish(secrets: []) == 0)
    }
}
