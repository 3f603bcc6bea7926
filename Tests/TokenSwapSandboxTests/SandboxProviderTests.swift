import Foundation
import HTTPCore
import Testing
import Transport

@testable import TokenSwap
@testable import TokenSwapFixtures
@testable import TokenSwapSandbox

@Suite struct SandboxProviderTests {
    typealias S = SandboxFixtures

    @Test func authorizeRedirectsWithCodeAndEncodedState() throws {
        let sandbox = try S.sandbox()
        let response = S.authorize(
            sandbox, "redirect_uri=myapp%3A%2F%2Fdev-callback&state=a%20b%26c%3D")
        #expect(response.status.code == 302)
        let location = try #require(response.headers["Location"])
        #expect(location.hasPrefix("myapp://dev-callback?code="))
        #expect(location.hasSuffix("&state=a+b%26c%3D"))
        let parameters = try S.redirectParameters(response)
        #expect(parameters["state"] == "a b&c=")
        #expect(parameters["code"]?.isEmpty == false)
    }

    @Test(arguments: [
        "redirect_uri=https%3A%2F%2Fevil.example%2Fcb&state=s", "client_id=nobody&state=s",
        "redirect_uri=%zz",
    ])
    func authorizeRefusesUnknownClientsAndRedirectsWithoutRedirecting(query: String) throws {
        let response = S.authorize(try S.sandbox(), query)
        #expect(response.status.code == 400)
        #expect(response.headers["Location"] == nil)
    }

    @Test func authorizeReportsOtherErrorsThroughTheRedirect() throws {
        let sandbox = try S.sandbox()
        let badType = S.authorize(sandbox, "response_type=token&state=s")
        #expect(try S.redirectParameters(badType)["error"] == "unsupported_response_type")
        let badChallenge = S.authorize(
            sandbox, "code_challenge=short&code_challenge_method=S256&state=s")
        #expect(try S.redirectParameters(badChallenge)["error"] == "invalid_request")
        #expect(try S.redirectParameters(badChallenge)["state"] == "s")
    }

    @Test func codeIsSingleUseAndReuseRevokesItsTokens() async throws {
        let sandbox = try S.sandbox()
        let (spotify, _) = try S.providers()
        let code = try S.code(sandbox)
        let grant = TokenGrant.authorizationCode(
            code: code, redirectURI: "myapp://callback", codeVerifier: nil)
        let first = try await S.send(sandbox, spotify, grant)
        #expect(first.status.code == 200)
        let refreshToken = try #require(try S.json(first)["refresh_token"]?.stringValue)
        let second = try await S.send(sandbox, spotify, grant)
        #expect(second.status.code == 400)
        #expect(try S.json(second)["error"]?.stringValue == "invalid_grant")
        let revoked = try await S.send(sandbox, spotify, .refreshToken(refreshToken))
        #expect(try S.json(revoked)["error"]?.stringValue == "invalid_grant")
    }

    @Test func everyRefreshRotatesAndTheOldTokenDies() async throws {
        let sandbox = try S.sandbox()
        let (spotify, _) = try S.providers()
        let swap = try await S.send(
            sandbox, spotify,
            .authorizationCode(
                code: try S.code(sandbox), redirectURI: "myapp://callback", codeVerifier: nil))
        var token = try #require(try S.json(swap)["refresh_token"]?.stringValue)
        for _ in 0..<3 {
            let refreshed = try await S.send(sandbox, spotify, .refreshToken(token))
            #expect(refreshed.status.code == 200)
            let body = try S.json(refreshed)
            #expect(body["expires_in"] == .number("3600"))
            #expect(body["token_type"]?.stringValue == "Bearer")
            let next = try #require(body["refresh_token"]?.stringValue)
            #expect(next != token)
            let replay = try await S.send(sandbox, spotify, .refreshToken(token))
            #expect(replay.status.code == 400)
            token = next
        }
    }

    @Test func codeIsBoundToClientAndRedirectURI() async throws {
        let sandbox = try S.sandbox()
        let (spotify, linkedin) = try S.providers()
        let otherClient = try await S.send(
            sandbox, linkedin,
            .authorizationCode(
                code: try S.code(sandbox), redirectURI: "myapp://callback", codeVerifier: nil))
        #expect(try S.json(otherClient)["error"]?.stringValue == "invalid_grant")
        let otherRedirect = try await S.send(
            sandbox, spotify,
            .authorizationCode(
                code: try S.code(sandbox), redirectURI: "myapp://dev-callback", codeVerifier: nil))
        #expect(try S.json(otherRedirect)["error"]?.stringValue == "invalid_grant")
    }

    /// RFC 7636 Appendix B.
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    @Test(
        arguments: [
            (verifier, 200), (nil, 400), (String(verifier.dropLast()) + "l", 400), (challenge, 400),
        ] as [(String?, Int)])
    func pkceS256IsVerified(verifier: String?, status: Int) async throws {
        let sandbox = try S.sandbox()
        let (spotify, _) = try S.providers()
        let code = try S.code(
            sandbox, "&code_challenge=\(Self.challenge)&code_challenge_method=S256")
        let response = try await S.send(
            sandbox, spotify,
            .authorizationCode(code: code, redirectURI: "myapp://callback", codeVerifier: verifier))
        #expect(response.status.code == status)
    }

    @Test func clientAuthenticationIsChecked() async throws {
        let sandbox = try S.sandbox()
        let (spotify, linkedin) = try S.providers()
        // Both methods work (spotify: Basic, linkedin: body).
        for provider in [spotify, linkedin] {
            let ok = try await S.send(
                sandbox, provider,
                .authorizationCode(
                    code: "sandbox-no-refresh", redirectURI: "x:y", codeVerifier: nil))
            #expect(ok.status.code == 200)
        }
        let wrongSecret = Provider(
            name: "spotify", preset: .generic, tokenURL: spotify.tokenURL,
            clientID: spotify.clientID,
            clientSecret: Secret("wrong"), authMethod: .clientSecretBasic,
            redirectURI: spotify.redirectURI)
        let refused = try await S.send(
            sandbox, wrongSecret,
            .authorizationCode(code: "sandbox-no-refresh", redirectURI: "x:y", codeVerifier: nil))
        #expect(refused.status.code == 401)
        #expect(try S.json(refused)["error"]?.stringValue == "invalid_client")
        var both = linkedin.tokenRequest(for: .refreshToken("x"))
        both.headers.add(name: "Authorization", value: spotify.basicCredentials.revealed)
        let twice = try await sandbox.send(both, timeoutSeconds: 1)
        #expect(twice.status.code == 401)
        var none = spotify.tokenRequest(for: .refreshToken("x"))
        none.headers.remove(name: "Authorization")
        #expect(try await sandbox.send(none, timeoutSeconds: 1).status.code == 401)
    }

    @Test(
        arguments: [
            ("sandbox-invalid", 400, nil), ("sandbox-expired", 400, nil), ("sandbox-429", 429, "7"),
            ("sandbox-429-json", 429, "7"), ("sandbox-500", 500, nil),
            ("sandbox-garbage", 200, nil),
        ] as [(String, Int, String?)])
    func magicValuesFailOnDemand(value: String, status: Int, retryAfter: String?) async throws {
        let sandbox = try S.sandbox()
        let (spotify, _) = try S.providers()
        for grant in [
            TokenGrant.authorizationCode(code: value, redirectURI: "x:y", codeVerifier: nil),
            .refreshToken(value),
        ] {
            let response = try await S.send(sandbox, spotify, grant)
            #expect(response.status.code == status)
            #expect(response.headers["Retry-After"] == retryAfter)
        }
    }

    @Test func slowAnswerOutlastsTheDeadline() async throws {
        let sandbox = try S.sandbox()
        let (spotify, _) = try S.providers()
        let started = ContinuousClock.now
        do {
            let response = try await sandbox.send(
                spotify.tokenRequest(for: .refreshToken("sandbox-slow")), timeoutSeconds: 0.2)
            Issue.record("answered \(response.status) instead of timing out")
        } catch {
            #expect(error == .timeout(.exchange))
        }
        #expect(ContinuousClock.now - started >= .milliseconds(200))
    }

    @Test func expiredCodesAreRefused() async throws {
        var limits = SandboxLimits()
        limits.codeLifetimeSeconds = 1
        let clock = TestClock()
        let sandbox = try S.sandbox(limits, clock: clock)
        let (spotify, _) = try S.providers()
        let code = try S.code(sandbox)
        clock.advance(seconds: 2)
        let response = try await S.send(
            sandbox, spotify,
            .authorizationCode(code: code, redirectURI: "myapp://callback", codeVerifier: nil))
        #expect(try S.json(response)["error"]?.stringValue == "invalid_grant")
    }

    @Test func stateIsBoundedByItsCaps() async throws {
        var limits = SandboxLimits()
        limits.maxOutstandingCodes = 5
        limits.maxRefreshTokens = 3
        let sandbox = try S.sandbox(limits)
        let (spotify, _) = try S.providers()
        let codes = try (0..<20).map { _ in try S.code(sandbox) }
        #expect(sandbox.state.withLock { $0.codes.count } == 5)
        // The oldest were dropped, the newest kept.
        let oldest = try await S.send(
            sandbox, spotify,
            .authorizationCode(code: codes[0], redirectURI: "myapp://callback", codeVerifier: nil))
        #expect(oldest.status.code == 400)
        for code in codes.suffix(5) {
            let ok = try await S.send(
                sandbox, spotify,
                .authorizationCode(code: code, redirectURI: "myapp://callback", codeVerifier: nil))
            #expect(ok.status.code == 200)
        }
        #expect(sandbox.state.withLock { $0.refreshTokens.count } == 3)
    }

    @Test func tokenRouteServesOverHTTPShape() async throws {
        let sandbox = try S.sandbox()
        let (spotify, _) = try S.providers()
        let upstream = spotify.tokenRequest(
            for: .authorizationCode(
                code: "sandbox-no-refresh", redirectURI: "x:y", codeVerifier: nil))
        let route = try #require(sandbox.routes.first { $0.path == "/sandbox/token" })
        #expect(route.method == .post)
        let response = await route.answer(
            HTTPRequest(
                method: .post, target: "/sandbox/token", headers: upstream.headers,
                body: upstream.body))
        #expect(response.status.code == 200)
        #expect(sandbox.routes.contains { $0.path == "/sandbox/authorize" && $0.method == .get })
    }

    @Test func bannerIsLoudAndHoldsNoSecret() throws {
        let (spotify, _) = try S.providers()
        let banner = SandboxBanner.text(
            baseURL: "http://127.0.0.1:8080", defaultProvider: spotify, ephemeralKeys: true)
        #expect(banner.contains("SANDBOX MODE"))
        #expect(banner.contains("/sandbox/authorize"))
        #expect(banner.contains("keys are ephemeral"))
        #expect(!banner.contains(GrantEndpointsFixtures.secret))
    }

    /// With TOKENSWAP_ENCRYPTION_KEYS set the banner said "keys are ephemeral" anyway.
    @Test func bannerSaysPlainlyWhenRealKeysAreSet() throws {
        let (spotify, _) = try S.providers()
        let banner = SandboxBanner.text(
            baseURL: "http://127.0.0.1:8080", defaultProvider: spotify, ephemeralKeys: false)
        #expect(banner.contains("REAL KEYS ARE SET (TOKENSWAP_ENCRYPTION_KEYS)"))
        #expect(!banner.contains("ephemeral"))
    }

    /// HEAD reached the GET handler (RFC 9110 §9.3.2) and minted a code nobody asked for.
    @Test func headOnAuthorizeMintsNoCode() throws {
        let sandbox = try S.sandbox()
        let head = sandbox.authorize(
            HTTPRequest(method: .head, target: "/sandbox/authorize?state=s"))
        #expect(head.status.code == 405)
        #expect(head.headers["Allow"] == "GET")
        #expect(head.headers["Location"] == nil)
        #expect(sandbox.state.withLock { $0.codes.count } == 0)
        #expect(S.authorize(sandbox, "state=s").status.code == 302)
        #expect(sandbox.state.withLock { $0.codes.count } == 1)
    }

    /// `POST /sandbox/token` checks client secrets (the configured ones, when set), so it
    /// is limited per client address like a provider's token endpoint.
    @Test func tokenEndpointIsRateLimitedPerClient() async throws {
        var limits = SandboxLimits()
        limits.tokenRequestsPerSecond = 0.01
        limits.tokenRequestBurst = 3
        let sandbox = try S.sandbox(limits)
        func guess(from address: String) async -> HTTPResponse {
            var headers = HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")])
            headers.add(name: "Authorization", value: "Basic Z3Vlc3M6c2VjcmV0")
            return await sandbox.token(
                HTTPRequest(
                    method: .post, target: "/sandbox/token", headers: headers,
                    body: Array("grant_type=authorization_code&code=x".utf8),
                    remoteAddress: address))
        }
        for _ in 0..<3 { #expect(await guess(from: "198.51.100.9").status.code == 401) }
        let limited = await guess(from: "198.51.100.9")
        #expect(limited.status.code == 429)
        #expect(limited.headers["Retry-After"] != nil)
        #expect(await guess(from: "198.51.100.10").status.code == 401)
    }

    /// The verification page's form token: signed for the cookie it was made with, and
    /// nothing else (issue 18, CSRF).
    @Test func formTokensAreBoundToTheirCookie() throws {
        let sandbox = try S.sandbox()
        let page = sandbox.verificationPage(HTTPRequest(method: .get, target: "/sandbox/device"))
        let setCookie = try S.unwrap(page.headers["Set-Cookie"])
        #expect(setCookie.hasSuffix("; Path=/sandbox/device; HttpOnly; SameSite=Strict"))
        let cookie = String(
            try S.unwrap(setCookie.split(separator: ";").first?.split(separator: "=").last))
        let field = try S.unwrap(sandbox.formToken.field(forCookie: cookie))
        #expect(String(decoding: page.body, as: UTF8.self).contains(#"value="\#(field)""#))
        #expect(sandbox.formToken.accepts(field: field, cookie: cookie))
        let other = SandboxProvider.randomValue(prefix: "")
        #expect(!sandbox.formToken.accepts(field: field, cookie: other))
        #expect(!sandbox.formToken.accepts(field: nil, cookie: cookie))
        #expect(!sandbox.formToken.accepts(field: field, cookie: nil))
        #expect(!sandbox.formToken.accepts(field: field + "A", cookie: cookie))
        #expect(!sandbox.formToken.accepts(field: field, cookie: cookie + "x"))
        // Another process (another secret) signs differently.
        #expect(!(try S.sandbox()).formToken.accepts(field: field, cookie: cookie))
        // The page keeps a browser's valid cookie instead of setting a new one.
        let again = sandbox.verificationPage(
            HTTPRequest(
                method: .get, target: "/sandbox/device",
                headers: HTTPHeaders([("Cookie", "a=b; \(SandboxFormToken.cookieName)=\(cookie)")]))
        )
        #expect(again.headers["Set-Cookie"] == nil)
        #expect(String(decoding: again.body, as: UTF8.self).contains(field))
    }

    /// No form token: `403` and nothing decided; past the wrong-code limit: `429`, even for
    /// the right code; right codes do not count against it.
    @Test func verificationDecisionsNeedTheFormTokenAndWrongCodesAreLimited() throws {
        var limits = SandboxLimits()
        limits.wrongUserCodesPerMinute = 2
        let sandbox = try S.sandbox(limits)
        let page = sandbox.verificationPage(HTTPRequest(method: .get, target: "/sandbox/device"))
        let cookie = String(
            try S.unwrap(
                page.headers["Set-Cookie"]?.split(separator: ";").first?.split(separator: "=")
                    .last))
        let field = try S.unwrap(sandbox.formToken.field(forCookie: cookie))
        func post(_ userCode: String, token: String?) -> HTTPResponse {
            var body = "user_code=\(userCode)&action=approve"
            if let token { body += "&form_token=\(token)" }
            return sandbox.verificationDecision(
                HTTPRequest(
                    method: .post, target: "/sandbox/device",
                    headers: HTTPHeaders([
                        ("Content-Type", "application/x-www-form-urlencoded"),
                        ("Cookie", "\(SandboxFormToken.cookieName)=\(cookie)"),
                    ]), body: Array(body.utf8), remoteAddress: "198.51.100.7"))
        }
        let codes = try (0..<2).map { _ in try Self.userCode(sandbox) }
        #expect(post(codes[0], token: nil).status.code == 403)
        #expect(post(codes[0], token: "x").status.code == 403)
        #expect(post(codes[0], token: field).status.code == 200)  // still pending: decided now
        #expect(post(codes[0], token: field).status.code == 400)  // used
        #expect(post("BBBBBBBB", token: field).status.code == 400)
        let limited = post(codes[1], token: field)
        #expect(limited.status.code == 429)
        #expect(limited.headers["Retry-After"] != nil)
    }

    /// A pending device grant's user code, planted as the device endpoint plants it.
    static func userCode(_ sandbox: SandboxProvider) throws -> String {
        let userCode = String(
            (0..<8).map { _ in SandboxProvider.userCodeAlphabet.randomElement() ?? "B" })
        let deviceCode = SandboxProvider.randomValue(prefix: "sbd-")
        let now = sandbox.clock()
        sandbox.state.withLock {
            $0.deviceGrants.insert(
                SandboxProvider.DeviceGrant(
                    clientID: "client-1", scope: "tv", userCode: userCode, decision: .pending,
                    magic: nil), for: deviceCode, expiresAt: .after(seconds: 600, from: now),
                now: now)
            $0.userCodes.insert(
                deviceCode, for: userCode, expiresAt: .after(seconds: 600, from: now), now: now)
        }
        return userCode
    }
}
