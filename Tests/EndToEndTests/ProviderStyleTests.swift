import Foundation
import Testing

/// Revocation and introspection in the provider styles of the presets (CONTRACT §8),
/// through the binary against a stub standing in for Google, GitHub and L2P: what each
/// provider receives (method, path, auth, body; never the secret in a URL) and how its
/// answers come back in RFC 7009 / RFC 7662 shape.
@Suite(.serialized, .resourceClass(.processes)) struct ProviderStyleTests {
    /// One preset provider in front of the stub, its token and lifecycle URLs at `paths`.
    static func serve(
        _ name: String, stub: ProviderStub, deployment: Deployment, keys: String,
        paths: [String: String], extra: [String: String] = [:]
    ) async throws -> TokenSwapProcess {
        let prefix = "TOKENSWAP_\(name.uppercased())_"
        var environment = [
            "TOKENSWAP_PROVIDERS": name,
            prefix + "CLIENT_ID": Deployment.clientID,
            prefix + "CLIENT_SECRET": deployment.clientSecret,
            prefix + "REDIRECT_URI": Deployment.redirectURI,
            "TOKENSWAP_ENCRYPTION_KEYS": keys,
        ]
        for (variable, path) in paths { environment[prefix + variable] = stub.tokenURL(path) }
        environment.merge(extra) { _, new in new }
        return try await TokenSwapProcess.serve(environment: environment)
    }

    /// A swap through `name`'s endpoint whose provider issued `raw`: the sealed token.
    static func sealed(_ raw: String, stub: ProviderStub, port: UInt16, name: String)
        async throws -> String
    {
        try await stub.answerTokens([
            "access_token": "at-of-" + raw, "token_type": "Bearer", "expires_in": 3600,
            "refresh_token": raw,
        ])
        let swap = try await Exchange.form(
            "/v1/\(name)/swap", port: port, [("code", "code-" + raw)])
        return try #require(swap.string("refresh_token"), "\(swap)")
    }

    static func finish(
        _ server: TokenSwapProcess, _ stub: ProviderStub, _ deployment: Deployment,
        _ keys: String, _ values: [String]
    ) async throws {
        #expect(try await server.stop() == 0)
        expectNoSecrets(
            in: [server.output, stub.errorOutput],
            [deployment.clientSecret] + Deployment.keyMaterial(keys) + values)
    }

    @Test func googleRevokesAndReadsTokeninfoWithoutCredentials() async throws {
        let stub = try await ProviderStub.start()
        let deployment = Deployment()
        let keys = Deployment.newKey("G")
        let server = try await Self.serve(
            "google", stub: stub, deployment: deployment, keys: keys,
            paths: [
                "TOKEN_URL": "/token", "REVOCATION_URL": "/revoke",
                "INTROSPECTION_URL": "/tokeninfo",
            ])
        let port = server.port
        let sealed = try await Self.sealed("rt-raw-google", stub: stub, port: port, name: "google")
        try await stub.answer(status: 200, body: "{}", path: "/revoke")
        for token in [sealed, "at-google"] {
            let answer = try await Exchange.form("/v1/revoke", port: port, [("token", token)])
            RevocationTests.expectRevoked(answer, "forwarded")
        }
        try await stub.answer(
            status: 400,
            body: #"{"error":"invalid_token","error_description":"Token expired or revoked"}"#,
            path: "/revoke")
        RevocationTests.expectRevoked(
            try await Exchange.form("/v1/revoke", port: port, [("token", "at-dead")]), "forwarded")

        // tokeninfo: numbers as strings, the client as azp; only RFC 7662 members come back.
        try await IntrospectionTests.answerJSON(
            stub,
            [
                "azp": Deployment.clientID, "aud": Deployment.clientID, "sub": "1170",
                "scope": "openid email", "exp": "2000000000", "expires_in": "3599",
                "email": "ada@example.com", "email_verified": "true", "access_type": "offline",
            ], path: "/tokeninfo")
        let active = try await Exchange.form(
            "/v1/google/introspect", port: port, [("token", "at-google")])
        #expect(
            Set(active.json?.keys.map { $0 } ?? [])
                == ["active", "client_id", "aud", "sub", "scope", "exp"])
        #expect(active.json?["exp"] as? Int == 2_000_000_000)
        #expect(active.string("client_id") == Deployment.clientID)
        #expect(!active.body.contains("ada@example.com"))
        // CONTRACT §15: a token Google issued to another client is not active here.
        for audiences in [
            ["azp": "other-client", "aud": "other-client"], ["azp": "other-client"],
            ["aud": "other-client", "azp": Deployment.clientID], [:],
        ] {
            try await IntrospectionTests.answerJSON(
                stub, audiences.merging(["scope": "email", "exp": "2000000000"]) { a, _ in a },
                path: "/tokeninfo")
            #expect(
                try await Exchange.form("/v1/introspect", port: port, [("token", "at-other")])
                    .body == #"{"active":false}"#, "\(audiences)")
        }
        try await IntrospectionTests.answerJSON(
            stub, ["azp": Deployment.clientID, "exp": "1000000000"], path: "/tokeninfo")
        #expect(
            try await Exchange.form("/v1/introspect", port: port, [("token", "at-google")]).body
                == #"{"active":false}"#)
        try await IntrospectionTests.answerJSON(
            stub, ["error": "invalid_token", "error_description": "Invalid Value"], status: 400,
            path: "/tokeninfo")
        #expect(
            try await Exchange.form("/v1/introspect", port: port, [("token", "at-dead")]).body
                == #"{"active":false}"#)
        // A sealed refresh token: tokeninfo knows access tokens only, so it is asked about
        // as the access token it might be (a random value gets the same call: CONTRACT §8).
        #expect(
            try await Exchange.form("/v1/introspect", port: port, [("token", sealed)]).body
                == #"{"active":false}"#)

        let received = try await stub.received().filter { !$0.body.contains("at-other") }
        try #require(received.count == 8)
        let revocations = Array(received[1...3])
        #expect(
            revocations.map(\.form) == [
                ["token": "rt-raw-google"], ["token": "at-google"], ["token": "at-dead"],
            ])
        let infos = Array(received[4...7])
        #expect(
            infos.map(\.form) == [
                ["access_token": "at-google"], ["access_token": "at-google"],
                ["access_token": "at-dead"], ["access_token": sealed],
            ])
        for request in revocations + infos {
            #expect(request.method == "POST")
            #expect(request.header("Authorization") == nil)
            #expect(!request.target.contains("?"))
            #expect(!request.body.contains(deployment.clientSecret))
        }
        #expect(revocations.allSatisfy { $0.target == "/revoke" })
        #expect(infos.allSatisfy { $0.target == "/tokeninfo" })
        try await Self.finish(
            server, stub, deployment, keys, ["rt-raw-google", sealed, "at-google", "at-dead"])
    }

    @Test func githubDeletesAndChecksTokensWithBasicAuthAndAJSONBody() async throws {
        let stub = try await ProviderStub.start()
        let deployment = Deployment()
        let keys = Deployment.newKey("H")
        let api = "/applications/{client_id}/token"
        let path = "/applications/\(Deployment.clientID)/token"
        let server = try await Self.serve(
            "github", stub: stub, deployment: deployment, keys: keys,
            paths: [
                "TOKEN_URL": "/login/oauth/access_token", "REVOCATION_URL": api,
                "INTROSPECTION_URL": api,
            ])
        let port = server.port
        let sealed = try await Self.sealed("rt-raw-github", stub: stub, port: port, name: "github")

        // DELETE answers 204; a dead token 404 or 422: the client sees the same 200.
        for status in [204, 404, 422] {
            try await stub.answer(status: status, body: "", path: path)
            RevocationTests.expectRevoked(
                try await Exchange.form("/v1/revoke", port: port, [("token", "at-github")]),
                "forwarded")
        }
        // GitHub cannot revoke by refresh token: the value goes as an access token, as any
        // unknown value does (CONTRACT §8: nothing tells that it opened).
        RevocationTests.expectRevoked(
            try await Exchange.form("/v1/revoke", port: port, [("token", sealed)]), "forwarded")

        try await IntrospectionTests.answerJSON(
            stub,
            [
                "id": 1, "token": "at-github", "hashed_token": "h", "token_last_eight": "t",
                "scopes": ["repo", "user"], "app": ["client_id": Deployment.clientID],
                "user": ["login": "octocat"], "expires_at": "2033-05-18T03:33:20Z",
            ], path: path)
        let active = try await Exchange.form(
            "/v1/introspect", port: port, [("token", "at-github")])
        #expect(
            Set(active.json?.keys.map { $0 } ?? [])
                == ["active", "scope", "client_id", "username", "exp"])
        #expect(active.string("scope") == "repo user")
        #expect(active.string("username") == "octocat")
        #expect(active.json?["exp"] as? Int == 2_000_000_000)
        #expect(!active.body.contains("at-github"))
        try await stub.answer(
            status: 404, body: #"{"message":"Not Found"}"#, path: path)
        #expect(
            try await Exchange.form("/v1/introspect", port: port, [("token", "at-gone")]).body
                == #"{"active":false}"#)

        let received = Array(try await stub.received().dropFirst())
        try #require(received.count == 6)
        for request in received {
            #expect(request.target == path)
            #expect(
                request.header("Authorization")
                    == UpstreamRequestTests.basic(Deployment.clientID, deployment.clientSecret))
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("User-Agent") != nil)
            #expect(!request.body.contains(deployment.clientSecret))
        }
        #expect(received.prefix(4).allSatisfy { $0.method == "DELETE" })
        #expect(received.suffix(2).allSatisfy { $0.method == "POST" })
        #expect(received[0].json?["access_token"] as? String == "at-github")
        #expect(received[3].json?["access_token"] as? String == sealed)
        #expect(received[5].json?["access_token"] as? String == "at-gone")
        try await Self.finish(
            server, stub, deployment, keys, ["rt-raw-github", sealed, "at-github", "at-gone"])
    }

    @Test func l2pInvalidatesRefreshTokensAndReadsTokeninfo() async throws {
        let stub = try await ProviderStub.start()
        let deployment = Deployment()
        let keys = Deployment.newKey("L")
        let server = try await Self.serve(
            "l2p", stub: stub, deployment: deployment, keys: keys,
            paths: [
                "TOKEN_URL": "/oauth2.svc/token", "REVOCATION_URL": "/oauth2.svc/token",
                "INTROSPECTION_URL": "/oauth2.svc/tokeninfo",
                "DEVICE_AUTHORIZATION_URL": "/oauth2.svc/code",
            ])
        let port = server.port
        let sealed = try await Self.sealed("rt-raw-l2p", stub: stub, port: port, name: "l2p")
        try await stub.answer(status: 200, body: #"{"status":"ok"}"#)
        RevocationTests.expectRevoked(
            try await Exchange.form("/v1/revoke", port: port, [("token", sealed)]), "forwarded")
        // L2P refuses with HTTP 200 and a status string: the client sees the same 200.
        try await stub.answer(status: 200, body: #"{"status":"error: refresh token invalid."}"#)
        RevocationTests.expectRevoked(
            try await Exchange.form("/v1/revoke", port: port, [("token", sealed)]), "forwarded")
        let metrics = try await OperationsTests.scrape(port)
        #expect(
            metrics.contains(#"tokenswap_revocations_total{provider="l2p",outcome="revoked"} 1"#))
        #expect(
            metrics.contains(#"tokenswap_revocations_total{provider="l2p",outcome="invalid"} 1"#))
        // L2P invalidates refresh tokens only: anything that does not open goes as one, and
        // L2P calls it invalid (CONTRACT §8: the same call whether it opened or not).
        RevocationTests.expectRevoked(
            try await Exchange.form("/v1/revoke", port: port, [("token", "at-l2p")]),
            "forwarded")

        try await IntrospectionTests.answerJSON(
            stub, ["status": "ok", "state": "valid", "scope": "l2p.rwth", "expires_in": 3599],
            path: "/oauth2.svc/tokeninfo")
        let before = Int(Date().timeIntervalSince1970)
        let active = try await Exchange.form("/v1/introspect", port: port, [("token", "at-l2p")])
        #expect(active.json?["active"] as? Bool == true)
        #expect(active.string("scope") == "l2p.rwth")
        let exp = active.json?["exp"] as? Int ?? 0
        #expect(exp >= before + 3599 && exp <= before + 3599 + 60)
        #expect(active.json?["state"] == nil && active.json?["status"] == nil)
        try await IntrospectionTests.answerJSON(
            stub, ["status": "ok", "state": "expired"], path: "/oauth2.svc/tokeninfo")
        #expect(
            try await Exchange.form("/v1/introspect", port: port, [("token", "at-l2p")]).body
                == #"{"active":false}"#)

        let received = Array(try await stub.received().dropFirst(2))
        try #require(received.count == 4)
        #expect(received[0].target == "/oauth2.svc/token")
        #expect(
            received[0].form == [
                "grant_type": "invalidate", "refresh_token": "rt-raw-l2p",
                "client_id": Deployment.clientID,
            ])
        #expect(
            received[1].form == [
                "grant_type": "invalidate", "refresh_token": "at-l2p",
                "client_id": Deployment.clientID,
            ])
        for request in received[2...] {
            #expect(request.target == "/oauth2.svc/tokeninfo")
            #expect(request.form == ["access_token": "at-l2p", "client_id": Deployment.clientID])
        }
        #expect(received.allSatisfy { $0.method == "POST" && $0.header("Authorization") == nil })
        try await Self.finish(server, stub, deployment, keys, ["rt-raw-l2p", sealed, "at-l2p"])
    }

    /// The device grant through the one token endpoint: the same upstream poll as
    /// `/device/token` (no second implementation), and refused where the provider has no
    /// device endpoint; the discovery document lists it.
    @Test func tokenEndpointDispatchesTheDeviceGrant() async throws {
        let stub = try await ProviderStub.start()
        let deployment = Deployment()
        let keys = Deployment.newKey("D")
        let server = try await Self.serve(
            "acme", stub: stub, deployment: deployment, keys: keys,
            paths: ["TOKEN_URL": "/token", "DEVICE_AUTHORIZATION_URL": "/device/code"],
            extra: [
                "TOKENSWAP_ACME_AUTH": "client_secret_post",
                "TOKENSWAP_PUBLIC_URL": "https://tokens.example",
                "TOKENSWAP_PROVIDERS": "acme,spotify",
                "TOKENSWAP_SPOTIFY_CLIENT_ID": "spotify-client",
                "TOKENSWAP_SPOTIFY_CLIENT_SECRET": deployment.clientSecret,
                "TOKENSWAP_SPOTIFY_REDIRECT_URI": Deployment.redirectURI,
            ])
        let port = server.port
        try await stub.answer(
            status: 200,
            body:
                #"{"device_code":"dc-raw","user_code":"WDJB-MJHT","verification_uri":"https://example.com/device","expires_in":900,"interval":5}"#,
            path: "/device/code")
        let code = try await Exchange.form("/v1/acme/device/code", port: port, [])
        let sealedCode = try #require(code.string("device_code"), "\(code)")
        try await stub.answer(
            status: 400, body: #"{"error":"authorization_pending"}"#, path: "/token")
        let grant = "urn:ietf:params:oauth:grant-type:device_code"
        let viaToken = try await Exchange.form(
            "/v1/acme/token", port: port, [("grant_type", grant), ("device_code", sealedCode)])
        #expect(viaToken.status == 400)
        #expect(viaToken.error == "authorization_pending")
        // Time itself is what is tested: the poll interval (5 s, RFC 8628 §3.5) is kept, so
        // the second poll reaches the provider rather than a local slow_down.
        try await Task.sleep(for: .seconds(5.2))
        let viaDevice = try await Exchange.form(
            "/v1/acme/device/token", port: port, [("device_code", sealedCode)])
        #expect(viaDevice.status == viaToken.status)
        #expect(viaDevice.error == viaToken.error)

        let polls = try await stub.received().filter { $0.target == "/token" }
        try #require(polls.count == 2)
        #expect(polls[0].form == polls[1].form)
        #expect(polls[0].form["grant_type"] == grant)
        #expect(polls[0].form["device_code"] == "dc-raw")

        // spotify has no device endpoint: the grant is not one its token endpoint serves.
        let refused = try await Exchange.form(
            "/v1/spotify/token", port: port, [("grant_type", grant), ("device_code", sealedCode)])
        #expect(refused.status == 400)
        #expect(refused.error == "unsupported_grant_type")

        let document = try #require(
            try await Exchange.request(
                "GET", "/.well-known/oauth-authorization-server/v1/acme", port: port
            ).json)
        #expect(
            document["device_authorization_endpoint"] as? String
                == "https://tokens.example/v1/acme/device/code")
        #expect((document["grant_types_supported"] as? [String])?.contains(grant) == true)
        let spotify = try #require(
            try await Exchange.request(
                "GET", "/.well-known/oauth-authorization-server/v1/spotify", port: port
            ).json)
        #expect(spotify["device_authorization_endpoint"] == nil)
        try await Self.finish(server, stub, deployment, keys, ["dc-raw", sealedCode])
    }
}
