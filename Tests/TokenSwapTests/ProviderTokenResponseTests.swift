import HTTPCore
import Testing

@testable import TokenSwap

@Suite struct ProviderTokenResponseTests {
    static func answer(_ code: Int, _ body: String, headers: [(String, String)] = [])
        -> HTTPResponse
    {
        HTTPResponse(
            status: HTTPStatus(code: code, reasonPhrase: "X"), headers: HTTPHeaders(headers),
            body: Array(body.utf8))
    }

    static func outcome(_ response: HTTPResponse) -> GrantError? {
        do {
            _ = try ProviderTokenResponse.interpret(response)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        (#"{"access_token":"a","expires_in":3600}"#, "3600"),
        (#"{"access_token":"a","expires_in":"3600"}"#, "3600"),
        (#"{"access_token":"a","expires_in":" 60 "}"#, "60"),
        (#"{"access_token":"a","expires_in":3600.0}"#, "3600"),
        (#"{"access_token":"a","expires_in":3.6e3}"#, "3600"),
    ])
    func expiresInBecomesAnInteger(body: String, expected: String) throws {
        let parsed = try ProviderTokenResponse.interpret(Self.answer(200, body))
        #expect(parsed.members.first { $0.name == "expires_in" }?.value == .number(expected))
    }

    @Test func otherFieldsPassThroughInOrder() throws {
        let body =
            #"{"access_token":"a","token_type":"Bearer","scope":"x y","id_token":"j.w.t","n":1.50,"refresh_token":"r"}"#
        let parsed = try ProviderTokenResponse.interpret(Self.answer(200, body))
        #expect(
            parsed.members.map(\.name) == [
                "access_token", "token_type", "scope", "id_token", "n", "refresh_token",
            ])
        #expect(parsed.members.first { $0.name == "n" }?.value == .number("1.50"))
        #expect(parsed.refreshToken == "r")
    }

    @Test(arguments: [
        "not json", "[]", #"{"token_type":"Bearer"}"#, #"{"access_token":""}"#,
        #"{"access_token":5}"#,
        #"{"access_token":"a","expires_in":"soon"}"#, #"{"access_token":"a","expires_in":-1}"#,
        #"{"access_token":"a","expires_in":1.5}"#, #"{"access_token":"a","expires_in":true}"#,
        #"{"access_token":"a","refresh_token":7}"#, #"{"access_token":"a","refresh_token":""}"#, "",
    ])
    func invalidTokenResponseIsUpstreamError(body: String) {
        guard case .upstreamError? = Self.outcome(Self.answer(200, body)) else {
            Issue.record("expected upstream_error")
            return
        }
    }

    @Test(arguments: [400, 401, 403])
    func oauthErrorPassesThroughVerbatim(code: Int) {
        let body = #"{"error":"invalid_grant","error_description":"Invalid authorization code"}"#
        #expect(
            Self.outcome(Self.answer(code, body))
                == .providerRejected(
                    status: HTTPStatus(code: code, reasonPhrase: "X"), body: Array(body.utf8)))
    }

    @Test func errorInASuccessStatusIsStillADeadGrant() {
        let body = #"{"error":"invalid_grant"}"#
        #expect(
            Self.outcome(Self.answer(200, body))
                == .providerRejected(status: .badRequest, body: Array(body.utf8)))
    }

    @Test(arguments: ["<html>nope</html>", #"{"message":"x"}"#, ""])
    func fourHundredWithoutOAuthBodyIsUpstreamError(body: String) {
        guard case .upstreamError? = Self.outcome(Self.answer(404, body)) else {
            Issue.record("expected upstream_error")
            return
        }
    }

    @Test func throttlingKeepsRetryAfterAndOAuthBody() {
        let oauth = #"{"error":"slow_down"}"#
        #expect(
            Self.outcome(Self.answer(429, oauth, headers: [("Retry-After", "30")]))
                == .providerThrottled(retryAfterSeconds: 30, body: Array(oauth.utf8)))
        #expect(
            Self.outcome(Self.answer(429, "Too many", headers: [("Retry-After", "5")]))
                == .providerThrottled(retryAfterSeconds: 5, body: nil))
        #expect(
            Self.outcome(Self.answer(429, ""))
                == .providerThrottled(retryAfterSeconds: nil, body: nil))
        // CONTRACT §2: never passed on as sent; the absurd delay is an hour, not a trap.
        #expect(
            Self.outcome(
                Self.answer(429, "", headers: [("Retry-After", "99999999999999999999")]))
                == .providerThrottled(retryAfterSeconds: 3600, body: nil))
    }

    @Test(arguments: [500, 502, 503, 504, 302, 100])
    func otherStatusesAreUpstreamError(code: Int) {
        guard case .upstreamError? = Self.outcome(Self.answer(code, #"{"error":"server_error"}"#))
        else {
            Issue.record("expected upstream_error")
            return
        }
    }

    /// A `null` refresh token is no refresh token: the member is dropped, the rest kept in
    /// order.
    @Test func aNullRefreshTokenIsDropped() throws {
        let parsed = try ProviderTokenResponse.interpret(
            Self.answer(200, #"{"access_token":"a","refresh_token":null,"expires_in":"60"}"#))
        #expect(parsed.members.map(\.name) == ["access_token", "expires_in"])
        #expect(parsed.members.last?.value == .number("60"))
        #expect(parsed.refreshToken == nil)
    }

    /// The answer (`GrantAnswer.success`): the provider's members in order, its
    /// `refresh_token` replaced in place by the sealed one, or removed when none goes back,
    /// or the sealed one added at the end when the provider sent none.
    @Test(
        arguments: [
            (
                #"{"access_token":"a","refresh_token":"raw","scope":"s"}"#, "sealed",
                #"{"access_token":"a","refresh_token":"sealed","scope":"s"}"#
            ),
            (
                #"{"refresh_token":"raw","access_token":"a"}"#, "sealed",
                #"{"refresh_token":"sealed","access_token":"a"}"#
            ),
            (
                #"{"access_token":"a","scope":"s"}"#, "sealed",
                #"{"access_token":"a","scope":"s","refresh_token":"sealed"}"#
            ),
            (
                #"{"access_token":"a","refresh_token":"raw","scope":"s"}"#, nil,
                #"{"access_token":"a","scope":"s"}"#
            ),
            (#"{"access_token":"a"}"#, nil, #"{"access_token":"a"}"#),
        ] as [(String, String?, String)])
    func theAnswerPutsTheSealedTokenWhereTheProvidersWas(
        body: String, sealed: String?, expected: String
    ) throws {
        let parsed = try ProviderTokenResponse.interpret(Self.answer(200, body))
        let answer = GrantAnswer.success(parsed, refreshToken: sealed)
        #expect(String(decoding: answer.body, as: UTF8.self) == expected)
        #expect(answer.status.code == 200)
    }
}
