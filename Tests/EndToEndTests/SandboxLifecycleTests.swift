import Foundation
import Testing

/// `serve --sandbox` plays revocation and introspection (CONTRACT §5, §8): its access
/// tokens are active until they expire or their grant is revoked, a revoked refresh token
/// is dead from then on, and the magic failure values reach the client as the contract
/// says (503 with Retry-After on revoke).
@Suite(.serialized, .resourceClass(.processes)) struct SandboxLifecycleTests {
    static func swap(_ port: UInt16, code: String? = nil) async throws -> (
        access: String, sealed: String
    ) {
        let theCode: String
        if let code { theCode = code } else { theCode = try await SandboxFlowTests.authorize(port) }
        let swap = try await Exchange.form(
            "/v1/token", port: port, [("grant_type", "authorization_code"), ("code", theCode)])
        #expect(swap.status == 200, "\(swap.status)")
        return (
            try #require(swap.string("access_token")), try #require(swap.string("refresh_token"))
        )
    }

    static func introspect(_ port: UInt16, _ token: String) async throws -> Exchange.Answer {
        try await Exchange.form("/v1/introspect", port: port, [("token", token)])
    }

    @Test func swapIntrospectRevokeAndTheRefreshIsRefused() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let port = server.port
        let (access, sealed) = try await Self.swap(port)

        let active = try await Self.introspect(port, access)
        #expect(active.json?["active"] as? Bool == true)
        #expect(active.string("scope") == "sandbox")
        #expect(active.string("client_id") == "sandbox-spotify")
        #expect((active.json?["exp"] as? Int ?? 0) > Int(Date().timeIntervalSince1970))

        // Revoking the access token ends it alone: the grant still refreshes.
        let revokeAccess = try await Exchange.form("/v1/revoke", port: port, [("token", access)])
        #expect(revokeAccess.status == 200)
        #expect(revokeAccess.header("Tokenswap-Revocation") == "forwarded")
        #expect(try await Self.introspect(port, access).body == #"{"active":false}"#)
        let refreshed = try await Exchange.form(
            "/v1/refresh", port: port, [("refresh_token", sealed)])
        #expect(refreshed.status == 200)
        let newAccess = try #require(refreshed.string("access_token"))
        let rotated = try #require(refreshed.string("refresh_token"))

        // Revoking the refresh token ends the grant: it and its access tokens are dead.
        let revokeRefresh = try await Exchange.form(
            "/v1/spotify/revoke", port: port, [("token", rotated)])
        #expect(revokeRefresh.status == 200)
        #expect(revokeRefresh.body == "{}")
        #expect(try await Self.introspect(port, newAccess).body == #"{"active":false}"#)
        for path in ["/v1/refresh", "/v1/token"] {
            let refused = try await Exchange.form(
                path, port: port, [("grant_type", "refresh_token"), ("refresh_token", rotated)])
            #expect(refused.status == 400)
            #expect(refused.error == "invalid_grant")
        }
        // Revoking again, or something never issued: the same 200 (no oracle).
        for token in [rotated, "sba-never-issued"] {
            let again = try await Exchange.form("/v1/revoke", port: port, [("token", token)])
            #expect(again.status == 200)
            #expect(again.body == "{}")
        }
        #expect(try await server.stop() == 0)
        expectNoSecrets(in: [server.output], [access, sealed, newAccess, rotated])
    }

    /// Planted failures: a refresh token that makes the sandbox answer 500 or 429 on
    /// revocation (503 with Retry-After for the client) and on introspection (502 / 429).
    @Test func magicFailuresOnRevokeAndIntrospect() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let port = server.port
        let (_, failing) = try await Self.swap(port, code: "sandbox-refresh-500")
        let down = try await Exchange.form("/v1/revoke", port: port, [("token", failing)])
        #expect(down.status == 503)
        #expect(down.error == "temporarily_unavailable")
        #expect(down.header("Retry-After") == "30")
        let (_, throttled) = try await Self.swap(port, code: "sandbox-refresh-429")
        let slow = try await Exchange.form("/v1/revoke", port: port, [("token", throttled)])
        #expect(slow.status == 503)
        #expect(slow.header("Retry-After") == "7")

        #expect(try await Self.introspect(port, failing).status == 502)
        #expect(try await Self.introspect(port, "sandbox-429").status == 429)
        #expect(try await server.stop() == 0)
    }

    /// Style `none` set for the sandbox's provider: revoke says broker and tokenswap ends the
    /// grant itself (CONTRACT §14), introspect is absent, and the discovery document lists
    /// neither.
    @Test func styleNoneInTheSandbox() async throws {
        let server = try await TokenSwapProcess.serve(
            ["--sandbox"],
            environment: [
                "TOKENSWAP_SPOTIFY_REVOCATION_STYLE": "none",
                "TOKENSWAP_SPOTIFY_INTROSPECTION_STYLE": "none",
                "TOKENSWAP_PUBLIC_URL": "http://127.0.0.1:9",
            ])
        let (access, sealed) = try await Self.swap(server.port)
        let revoke = try await Exchange.form("/v1/revoke", port: server.port, [("token", sealed)])
        #expect(revoke.status == 200)
        #expect(revoke.header("Tokenswap-Revocation") == "broker")
        // Revoked by the broker: the grant no longer refreshes.
        let refresh = try await Exchange.form(
            "/v1/refresh", port: server.port, [("refresh_token", sealed)])
        #expect(refresh.status == 400)
        #expect(refresh.error == "invalid_grant")
        #expect(try await Self.introspect(server.port, access).status == 404)
        let document = try #require(
            try await Exchange.request(
                "GET", "/.well-known/oauth-authorization-server/v1/spotify", port: server.port
            ).json)
        #expect(document["revocation_endpoint"] == nil)
        #expect(document["introspection_endpoint"] == nil)
        #expect(
            document["authorization_endpoint"] as? String
                == "http://127.0.0.1:9/sandbox/authorize")
        #expect(try await server.stop() == 0)
    }

    /// The L2P dialect: revocation is L2P's `invalidate` grant and introspection its
    /// `tokeninfo`, played by the sandbox; the app sees the same RFC answers.
    @Test func theL2PDialectInTheSandbox() async throws {
        let server = try await TokenSwapProcess.serve(
            ["--sandbox"], environment: ["TOKENSWAP_PROVIDERS": "l2p"])
        let port = server.port
        let authorize = try await Exchange.request(
            "GET",
            "/sandbox/authorize?client_id=sandbox-l2p&redirect_uri=\(Exchange.encode(SandboxFlowTests.redirect))",
            port: port)
        let location = try #require(authorize.header("Location"))
        let code = try #require(
            URLComponents(string: location)?.queryItems?.first { $0.name == "code" }?.value)
        let swap = try await Exchange.form(
            "/v1/l2p/token", port: port, [("grant_type", "authorization_code"), ("code", code)])
        #expect(swap.status == 200, "\(swap)")
        let access = try #require(swap.string("access_token"))
        let sealed = try #require(swap.string("refresh_token"))

        let active = try await Self.introspect(port, access)
        #expect(active.json?["active"] as? Bool == true)
        #expect(active.string("scope") == "sandbox")
        #expect((active.json?["exp"] as? Int ?? 0) > Int(Date().timeIntervalSince1970))
        // L2P invalidates refresh tokens only: an access token goes as one, which L2P calls
        // invalid; the answer is the same as for any token (CONTRACT §8: by style alone).
        let accessRevoke = try await Exchange.form("/v1/revoke", port: port, [("token", access)])
        #expect(accessRevoke.status == 200)
        #expect(accessRevoke.header("Tokenswap-Revocation") == "forwarded")
        #expect(try await Self.introspect(port, access).json?["active"] as? Bool == true)
        let revoke = try await Exchange.form("/v1/l2p/revoke", port: port, [("token", sealed)])
        #expect(revoke.status == 200)
        #expect(revoke.header("Tokenswap-Revocation") == "forwarded")
        #expect(try await Self.introspect(port, access).body == #"{"active":false}"#)
        let refused = try await Exchange.form(
            "/v1/refresh", port: port, [("refresh_token", sealed)])
        #expect(refused.status == 400)
        #expect(refused.error == "invalid_grant")
        #expect(try await server.stop() == 0)
        expectNoSecrets(in: [server.output], [code, access, sealed])
    }
}
