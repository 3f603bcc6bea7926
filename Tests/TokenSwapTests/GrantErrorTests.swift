import HTTPClient
import HTTPCore
import Testing

@testable import TokenSwap

@Suite struct GrantErrorTests {
    /// CONTRACT §2's error table, row by row: status, `error`, extra headers.
    @Test(
        arguments: [
            (GrantError.invalidRequest("code is missing"), 400, "invalid_request", nil),
            (.unsupportedMediaType, 415, "invalid_request", nil),
            (.unknownProvider, 404, "not_found", nil),
            (.unopenableToken, 400, "invalid_grant", nil),
            (
                .providerThrottled(retryAfterSeconds: 12, body: nil), 429,
                "temporarily_unavailable", "12"
            ),
            (.upstreamError(reason: "x"), 502, "upstream_error", nil),
            (.upstreamUnreachable(reason: "x"), 502, "upstream_unreachable", nil),
            (.upstreamTimeout, 504, "upstream_timeout", nil),
            (.rateLimited(retryAfterSeconds: 3), 429, "rate_limited", "3"),
            (.temporarilyUnavailable(reason: "x"), 503, "temporarily_unavailable", nil),
            (.invalidScope, 400, "invalid_scope", nil),
            (.unopenableDeviceCode, 400, "invalid_grant", nil),
            (.devicePoll(.accessDenied, interval: 5), 400, "access_denied", nil),
            (.devicePoll(.expiredToken, interval: 5), 400, "expired_token", nil),
            (.invalidClient, 401, "invalid_client", nil),
            (.unsupportedGrantType, 400, "unsupported_grant_type", nil),
            (.revocationUnavailable(retryAfterSeconds: 30), 503, "temporarily_unavailable", "30"),
            (.dpopProofIDsFull(retryAfterSeconds: 71), 503, "temporarily_unavailable", "71"),
            (.refreshCrowded, 503, "temporarily_unavailable", "1"),
        ] as [(GrantError, Int, String, String?)])
    func rowsOfTheErrorTable(
        error: GrantError, status: Int, code: String, retryAfter: String?
    ) throws {
        let response = error.response
        #expect(response.status.code == status)
        #expect(response.headers["Retry-After"] == retryAfter)
        Self.expectTokenHeaders(response)
        let body = try JSONParser.parse(response.body)
        #expect(body["error"]?.stringValue == code)
        #expect(body["error_description"]?.stringValue?.isEmpty == false)
        guard case .object(let members) = body else { return }
        #expect(members.count == 2)
    }

    @Test func providerBodiesPassThroughVerbatim() {
        let body = Array(#"{"error":"invalid_client" , "x":1}"#.utf8)
        let rejected = GrantError.providerRejected(status: .unauthorized, body: body)
            .response
        #expect(rejected.status.code == 401)
        #expect(rejected.body == body)
        Self.expectTokenHeaders(rejected)
        let throttled = GrantError.providerThrottled(retryAfterSeconds: 9, body: body)
            .response
        #expect(throttled.status.code == 429)
        #expect(throttled.body == body)
        #expect(throttled.headers["Retry-After"] == "9")
    }

    @Test(
        arguments: [
            (HTTPClientError.unreachable(reason: "ECONNREFUSED"), 502, "upstream_unreachable"),
            (.tls(.handshake(reason: "certificate verify failed")), 502, "upstream_unreachable"),
            (.timeout(.exchange), 504, "upstream_timeout"),
            (.timeout(.connect), 504, "upstream_timeout"),
            (.timeout(.tlsHandshake), 504, "upstream_timeout"),
            (.protocolError(reason: "bad chunk"), 502, "upstream_error"),
            (.responseTooLarge(limitBytes: 1), 502, "upstream_error"),
            (.invalidURL(reason: "x"), 502, "upstream_error"),
            (.poolExhausted, 503, "temporarily_unavailable"),
            (
                .resourcesExhausted(reason: "socket: Too many open files"), 503,
                "temporarily_unavailable"
            ),
            (.shutdown, 503, "temporarily_unavailable"),
        ] as [(HTTPClientError, Int, String)])
    func clientFailuresMapToTheTable(failure: HTTPClientError, status: Int, code: String) {
        let error = GrantError(failure)
        #expect(error.status.code == status)
        #expect(error.errorCode == code)
    }

    static func expectTokenHeaders(_ response: HTTPResponse) {
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(response.headers["Pragma"] == "no-cache")
    }
}
