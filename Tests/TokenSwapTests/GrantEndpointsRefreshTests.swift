import HTTPCore
import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

@Suite struct GrantEndpointsRefreshTests {
    typealias F = GrantEndpointsFixtures

    static func refreshForm(_ sealed: String) -> HTTPRequest {
        F.form("refresh_token=\(sealed)&client_id=x", path: "/v1/refresh")
    }

    @Test func rotatedRefreshTokenIsSealedAndTheRawOneWasSent() async throws {
        let provider = try F.provider()
        let sealed = try F.seal("raw-old", keys: F.newKey, provider: provider)
        let upstream = RecordingUpstream(
            RecordingUpstream.json(
                200,
                #"{"access_token":"a2","token_type":"Bearer","expires_in":3600,"refresh_token":"raw-new"}"#
            ))
        let response = try await F.service(upstream).answer {
            $0.refresh(
                Self.refreshForm(sealed), provider: provider, completion: $1)
        }.response
        #expect(response.status.code == 200)
        GrantErrorTests.expectTokenHeaders(response)
        let fields = try F.sentFields(try #require(upstream.requests.first))
        #expect(fields == ["grant_type": "refresh_token", "refresh_token": "raw-old"])
        let answer = try #require(try F.body(response)["refresh_token"]?.stringValue)
        #expect(try F.open(answer, keys: F.newKey, provider: provider).plaintextString == "raw-new")
        #expect(!String(decoding: response.body, as: UTF8.self).contains("raw-"))
    }

    @Test func unrotatedTokenUnderTheActiveKeyIsEchoedByteForByte() async throws {
        let provider = try F.provider()
        let sealed = try F.seal("raw-keep", keys: F.newKey, provider: provider)
        for body in [
            #"{"access_token":"a2","expires_in":3600}"#,
            #"{"access_token":"a2","refresh_token":"raw-keep"}"#,
        ] {
            let upstream = RecordingUpstream(RecordingUpstream.json(200, body))
            let response = try await F.service(upstream).answer {
                $0.refresh(
                    Self.refreshForm(sealed), provider: provider, completion: $1)
            }.response
            #expect(try F.body(response)["refresh_token"]?.stringValue == sealed)
        }
    }

    @Test func unrotatedTokenUnderAnOlderKeyIsResealedUnderTheActiveOne() async throws {
        let provider = try F.provider()
        let sealedOld = try F.seal("raw-keep", keys: F.oldKey, provider: provider)
        let upstream = RecordingUpstream(
            RecordingUpstream.json(200, #"{"access_token":"a2","expires_in":3600}"#))
        let response = try await F.service(upstream).answer {
            $0.refresh(
                Self.refreshForm(sealedOld), provider: provider, completion: $1)
        }.response
        let answer = try #require(try F.body(response)["refresh_token"]?.stringValue)
        #expect(answer != sealedOld)
        let opened = try F.open(answer, keys: F.newKey, provider: provider)
        #expect(opened.plaintextString == "raw-keep")
        #expect(opened.keyID == "new")
        #expect(
            try F.sentFields(try #require(upstream.requests.first))["refresh_token"] == "raw-keep")
    }

    @Test func tamperedTruncatedForeignOrUnknownTokensAreInvalidGrantWithoutAProviderCall()
        async throws
    {
        let provider = try F.provider()
        let good = try F.seal("raw", keys: F.newKey, provider: provider)
        var tampered = Array(good)
        tampered[tampered.count / 2] = tampered[tampered.count / 2] == "A" ? "B" : "A"
        let otherProvider = try F.seal(
            "raw", keys: F.newKey, provider: try F.provider(name: "linkedin"))
        let otherClient = try F.seal(
            "raw", keys: F.newKey, provider: try F.provider(clientID: "client-2"))
        let otherKey = try F.seal(
            "raw", keys: "zz:MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDU2Nzg5MDE", provider: provider)
        for candidate in [
            String(tampered), String(good.dropLast(5)), otherProvider, otherClient, otherKey, "raw",
            "x y",
        ] {
            let upstream = RecordingUpstream()
            let response = try await F.service(upstream).answer {
                $0.refresh(
                    Self.refreshForm(FormURLEncoding.encodeComponent(candidate)),
                    provider: provider, completion: $1)
            }.response
            #expect(response.status.code == 400)
            #expect(try F.body(response)["error"]?.stringValue == "invalid_grant")
            #expect(upstream.requests.isEmpty)
        }
    }

    @Test(arguments: ["", "refresh_token=", "refresh_token=(null)", "code=abc"])
    func missingRefreshTokenIsInvalidRequest(body: String) async throws {
        let upstream = RecordingUpstream()
        let provider = try F.provider()
        let response = try await F.service(upstream).answer {
            $0.refresh(F.form(body, path: "/v1/refresh"), provider: provider, completion: $1)
        }.response
        #expect(response.status.code == 400)
        #expect(try F.body(response)["error"]?.stringValue == "invalid_request")
        #expect(upstream.requests.isEmpty)
    }

    @Test func deadProviderTokenIsInvalidGrantVerbatim() async throws {
        let provider = try F.provider()
        let sealed = try F.seal("raw-revoked", keys: F.newKey, provider: provider)
        let providerBody = #"{"error":"invalid_grant","error_description":"Refresh token revoked"}"#
        let response = try await F.service(
            RecordingUpstream(RecordingUpstream.json(400, providerBody))
        )
        .answer {
            $0.refresh(
                F.json(#"{"refresh_token":"\#(sealed)"}"#, path: "/v1/refresh"), provider: provider,
                completion: $1)
        }.response
        #expect(response.status.code == 400)
        #expect(response.body == Array(providerBody.utf8))
    }
}
