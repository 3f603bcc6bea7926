import Foundation
import HTTPClient
import HTTPCore
import HTTPServer
import TestSupport
import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

@Suite struct GrantEndpointsSwapTests {
    typealias F = GrantEndpointsFixtures

    static let tokens =
        #"{"access_token":"at-1","token_type":"Bearer","scope":"user-read","expires_in":"3600","refresh_token":"raw-rt-1"}"#

    @Test func swapSendsCodeWithBasicAuthAndSealsTheRefreshToken() async throws {
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.tokens))
        let provider = try F.provider()
        let response = try await F.service(upstream).answer {
            $0.swap(
                F.form("code=the-code&code_verifier=v-1&client_id=ignored&grant_type=ignored"),
                provider: provider, completion: $1)
        }.response
        #expect(response.status.code == 200)
        GrantErrorTests.expectTokenHeaders(response)

        let sent = try #require(upstream.requests.first)
        #expect(upstream.requests.count == 1)
        #expect(sent.target == "/api/token")
        #expect(!sent.target.contains(F.secret))
        #expect(
            sent.headers["Authorization"] == "Basic "
                + Data("client-1:\(F.secret)".utf8).base64EncodedString())
        #expect(
            try F.sentFields(sent) == [
                "grant_type": "authorization_code", "code": "the-code",
                "redirect_uri": "myapp://callback", "code_verifier": "v-1",
            ])

        let body = try F.body(response)
        guard case .object(let members) = body else { Issue.record("not an object"); return }
        #expect(
            members.map(\.name) == [
                "access_token", "token_type", "scope", "expires_in", "refresh_token",
            ])
        #expect(body["expires_in"] == .number("3600"))
        #expect(body["access_token"]?.stringValue == "at-1")
        let sealed = try #require(body["refresh_token"]?.stringValue)
        #expect(sealed != "raw-rt-1")
        #expect(!String(decoding: response.body, as: UTF8.self).contains("raw-rt-1"))
        #expect(
            try F.open(sealed, keys: F.newKey, provider: provider).plaintextString == "raw-rt-1")
    }

    @Test func postAuthSendsTheSecretInTheBody() async throws {
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.tokens))
        let provider = try F.provider(name: "linkedin", auth: .clientSecretPost)
        _ = try await F.service(upstream).answer {
            $0.swap(F.json(#"{"code":"c1"}"#), provider: provider, completion: $1)
        }
        .response
        let sent = try #require(upstream.requests.first)
        #expect(sent.headers["Authorization"] == nil)
        let fields = try F.sentFields(sent)
        #expect(fields["client_id"] == "client-1")
        #expect(fields["client_secret"] == F.secret)
        #expect(fields["code_verifier"] == nil)
    }

    @Test(
        arguments: [
            (nil, "myapp://callback"), ("myapp://dev-callback", "myapp://dev-callback"),
            ("https://evil.example/cb", "myapp://callback"), ("(null)", "myapp://callback"),
        ] as [(String?, String)])
    func redirectURIFollowsTheAllowList(requested: String?, sent: String) async throws {
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.tokens))
        var body = "code=c"
        if let requested { body += "&redirect_uri=" + FormURLEncoding.encodeComponent(requested) }
        let provider = try F.provider()
        _ = try await F.service(upstream).answer {
            $0.swap(F.form(body), provider: provider, completion: $1)
        }.response
        #expect(try F.sentFields(try #require(upstream.requests.first))["redirect_uri"] == sent)
    }

    @Test func refreshTokenIsOmittedOnlyWhenTheProviderSentNone() async throws {
        let upstream = RecordingUpstream(
            RecordingUpstream.json(200, #"{"access_token":"a","expires_in":60}"#))
        let provider = try F.provider()
        let response = try await F.service(upstream).answer {
            $0.swap(
                F.form("code=c"), provider: provider, completion: $1)
        }.response
        #expect(response.status.code == 200)
        #expect(try F.body(response)["refresh_token"] == nil)
    }

    @Test(arguments: ["", "code=", "code=(null)", "code_verifier=x", "code=%zz"])
    func missingOrMalformedCodeNeverCallsTheProvider(body: String) async throws {
        let upstream = RecordingUpstream()
        let provider = try F.provider()
        let response = try await F.service(upstream).answer {
            $0.swap(F.form(body), provider: provider, completion: $1)
        }
        .response
        #expect(response.status.code == 400)
        #expect(try F.body(response)["error"]?.stringValue == "invalid_request")
        #expect(upstream.requests.isEmpty)
    }

    @Test func wrongContentTypeIs415() async throws {
        let upstream = RecordingUpstream()
        let request = HTTPRequest(
            method: .post, target: "/v1/swap",
            headers: HTTPHeaders([("Content-Type", "text/plain")]),
            body: Array("code=c".utf8))
        let provider = try F.provider()
        let response = try await F.service(upstream).answer {
            $0.swap(request, provider: provider, completion: $1)
        }
        .response
        #expect(response.status.code == 415)
        #expect(try F.body(response)["error"]?.stringValue == "invalid_request")
        #expect(upstream.requests.isEmpty)
    }

    @Test(
        arguments: [
            (
                RecordingUpstream.json(
                    400,
                    #"{"error":"invalid_grant","error_description":"Invalid authorization code"}"#),
                400, "invalid_grant"
            ),
            (RecordingUpstream.json(401, #"{"error":"invalid_client"}"#), 401, "invalid_client"),
            (
                RecordingUpstream.json(
                    429, #"{"error":"slow_down"}"#, headers: [("Retry-After", "17")]), 429,
                "slow_down"
            ),
            (
                RecordingUpstream.json(429, "busy", headers: [("Retry-After", "17")]), 429,
                "temporarily_unavailable"
            ),
            (RecordingUpstream.json(500, "oops"), 502, "upstream_error"),
            (RecordingUpstream.json(200, "<html>"), 502, "upstream_error"),
            (
                RecordingUpstream.Answer.failure(.unreachable(reason: "ECONNREFUSED")), 502,
                "upstream_unreachable"
            ),
            (
                RecordingUpstream.Answer.failure(.tls(.hostnameMismatch)), 502,
                "upstream_unreachable"
            ),
            (RecordingUpstream.Answer.failure(.timeout(.exchange)), 504, "upstream_timeout"),
        ] as [(RecordingUpstream.Answer, Int, String)])
    func upstreamOutcomesReachTheClient(answer: RecordingUpstream.Answer, status: Int, code: String)
        async throws
    {
        let provider = try F.provider()
        let response = try await F.service(RecordingUpstream(answer)).answer {
            $0.swap(
                F.form("code=c"), provider: provider, completion: $1)
        }.response
        #expect(response.status.code == status)
        #expect(try F.body(response)["error"]?.stringValue == code)
        GrantErrorTests.expectTokenHeaders(response)
        if status == 429 { #expect(response.headers["Retry-After"] == "17") }
    }

    @Test func logsOneLineWithoutCodesTokensOrSecrets() async throws {
        let logs = LogCapture()
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.tokens))
        let provider = try F.provider()
        // The line is written by the pipeline around the endpoint, as the service runs it.
        let route = try #require(
            try F.service(upstream).routes(providers: [provider], defaultProvider: provider)
                .first { $0.path == "/v1/swap" })
        let served = RequestPipeline(logger: logs.logger).wrap(route)
        _ = try await served.handler.response(
            to: F.form("code=the-code-value&code_verifier=verif-value"),
            RequestContext(routePath: "/v1/swap"))
        #expect(logs.all.count == 1)
        let line = try #require(logs.all.first)
        #expect(line.contains("status=200"))
        #expect(line.contains("outcome=ok"))
        #expect(line.contains("path=/v1/swap"))
        for forbidden in ["the-code-value", "verif-value", "raw-rt-1", "at-1", F.secret] {
            #expect(!line.contains(forbidden))
        }
    }
}

@Suite struct ProviderFailureLogTests {
    typealias F = GrantEndpointsFixtures

    /// An operator can tell a bad CA from a refused port in the logs: the reason class
    /// and the client's reason at warning, and never the code or the secret.
    @Test(arguments: [
        (HTTPClientError.unreachable(reason: "127.0.0.1:9: Connection refused"), "unreachable"),
        (.tls(.certificateVerifyFailed(reason: "unable to get local issuer certificate")), "tls"),
        (.timeout(.connect), "timeout"),
    ])
    func whyAProviderCallFailedIsLogged(error: HTTPClientError, outcome: String) async throws {
        let logs = LogCapture()
        let upstream = RecordingUpstream(.failure(error))
        let provider = try F.provider()
        _ = try await F.service(upstream, logs: logs).answer {
            $0.swap(
                F.form("code=the-code-value"), provider: provider, completion: $1)
        }
        let line = try #require(logs.all.first { $0.contains("provider call failed") })
        #expect(line.hasPrefix("warning "))
        #expect(line.contains("outcome=\(outcome)"))
        #expect(line.contains("reason=\(error)"))
        #expect(!line.contains("the-code-value"))
        #expect(!line.contains(F.secret))
    }
}
