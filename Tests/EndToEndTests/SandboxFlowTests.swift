import Foundation
import Testing

/// `tokenswap serve --sandbox` as a person trying it with curl would: authorize, swap,
/// refresh, replay, and every failure the sandbox can be asked for.
// Serialized: each test starts processes; the whole test run shares a 2-core machine with
// timing-sensitive suites, so the cases of a table go one after another, not all at once.
@Suite(.serialized, .resourceClass(.processes)) struct SandboxFlowTests {
    static let redirect = "tokenswap-sandbox://callback"

    /// GET /sandbox/authorize → 302 → the code in the Location.
    static func authorize(_ port: UInt16, state: String = "xyz") async throws -> String {
        let answer = try await Exchange.request(
            "GET",
            "/sandbox/authorize?redirect_uri=\(Exchange.encode(redirect))&state=\(state)",
            port: port)
        #expect(answer.status == 302)
        let location = try #require(answer.header("Location"))
        #expect(location.hasPrefix(redirect + "?"))
        let items = URLComponents(string: location)?.queryItems ?? []
        #expect(items.first { $0.name == "state" }?.value == state)
        return try #require(items.first { $0.name == "code" }?.value)
    }

    @Test func authorizeSwapRefreshRotatesAndAReplayedCodeIsInvalidGrant() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let code = try await Self.authorize(server.port)

        let swap = try await Exchange.form("/v1/swap", port: server.port, [("code", code)])
        #expect(swap.status == 200)
        #expect(swap.header("Cache-Control") == "no-store")
        #expect(swap.header("Pragma") == "no-cache")
        #expect(swap.header("Content-Type") == "application/json")
        let access = try #require(swap.string("access_token"))
        let sealed = try #require(swap.string("refresh_token"))
        #expect(swap.json?["expires_in"] is Int)
        #expect(sealed.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })

        let refresh = try await Exchange.form(
            "/v1/refresh", port: server.port, [("refresh_token", sealed)])
        #expect(refresh.status == 200)
        let rotated = try #require(refresh.string("refresh_token"))
        #expect(rotated != sealed)
        let newAccess = try #require(refresh.string("access_token"))
        #expect(newAccess != access)

        // The rotated token works. The sandbox revoked the old one on rotation, but a
        // retry with it within the replay window gets the same answer again, not the
        // provider's invalid_grant (CONTRACT §12: the app whose answer was lost stays
        // signed in).
        let again = try await Exchange.form(
            "/refresh", port: server.port, [("refresh_token", rotated)])
        #expect(again.status == 200)
        let retry = try await Exchange.form(
            "/v1/refresh", port: server.port, [("refresh_token", sealed)])
        #expect(retry.status == 200)
        #expect(retry.string("access_token") == newAccess)
        #expect(retry.string("refresh_token") == rotated)

        let replay = try await Exchange.form("/swap", port: server.port, [("code", code)])
        #expect(replay.status == 400)
        #expect(replay.error == "invalid_grant")

        #expect(try await server.stop() == 0)
        // The output really is captured: one line per request, with its status.
        let lines = server.standardOutput.split(separator: "\n")
        #expect(
            lines.contains {
                $0.contains("path=/v1/swap provider=spotify request_id=")
                    && $0.hasSuffix("status=200")
            })
        #expect(
            lines.contains {
                $0.contains("path=/sandbox/authorize request_id=") && $0.hasSuffix("status=302")
            })
        expectNoSecrets(
            in: [server.standardOutput],
            [code, access, sealed, rotated, newAccess, again.string("refresh_token") ?? ""])
        // The banner goes to stderr; it names no secret either.
        #expect(server.standardError.contains("SANDBOX MODE"))
        expectNoSecrets(in: [server.standardError], [code, access, sealed, rotated])
    }

    /// Every magic value of the sandbox, as a swap code, and planted in a refresh token,
    /// maps to the contract's status and error.
    @Test(
        arguments: [
            ("sandbox-invalid", 400, "invalid_grant", nil),
            ("sandbox-expired", 400, "invalid_grant", nil),
            ("sandbox-429", 429, "temporarily_unavailable", "7"),
            ("sandbox-429-json", 429, nil, "7"),
            ("sandbox-500", 502, "upstream_error", nil),
            ("sandbox-slow", 504, "upstream_timeout", nil),
            ("sandbox-garbage", 502, "upstream_error", nil),
        ] as [(String, Int, String?, String?)])
    func magicValue(code: String, status: Int, error: String?, retryAfter: String?) async throws {
        let server = try await TokenSwapProcess.serve(
            ["--sandbox"], environment: ["TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS": "1"])
        let swap = try await Exchange.form("/v1/swap", port: server.port, [("code", code)])
        #expect(swap.status == status)
        if let error { #expect(swap.error == error) } else { #expect(swap.error != nil) }
        #expect(swap.header("Retry-After") == retryAfter)
        #expect(swap.header("Cache-Control") == "no-store")

        // Planted: the swap succeeds; the refresh with its token fails the same way.
        let planted = "sandbox-refresh-" + code.dropFirst("sandbox-".count)
        let first = try await Exchange.form("/v1/swap", port: server.port, [("code", planted)])
        #expect(first.status == 200)
        let sealed = try #require(first.string("refresh_token"))
        let refresh = try await Exchange.form(
            "/v1/refresh", port: server.port, [("refresh_token", sealed)])
        #expect(refresh.status == status)
        if let error { #expect(refresh.error == error) }
        #expect(refresh.header("Retry-After") == retryAfter)
        #expect(try await server.stop() == 0)
        expectNoSecrets(in: [server.standardOutput], [sealed, first.string("access_token") ?? ""])
    }

    @Test func swapWithoutRefreshTokenAndStringExpiry() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let none = try await Exchange.form(
            "/v1/swap", port: server.port, [("code", "sandbox-no-refresh")])
        #expect(none.status == 200)
        #expect(none.json?["refresh_token"] == nil)
        let text = try await Exchange.form(
            "/v1/swap", port: server.port, [("code", "sandbox-string-expiry")])
        #expect(text.status == 200)
        #expect(text.json?["expires_in"] as? Int == 3600)
        #expect(text.body.contains(#""expires_in":3600"#))
        #expect(try await server.stop() == 0)
    }
}
