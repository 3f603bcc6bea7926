import Foundation
import Testing

@testable import TokenSwapClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The wire: endpoint paths (CONTRACT §2, §7, §8), form encoding, answer reading.
@Suite struct TokenSwapBackendTests {
    @Test func endpointsOfTheDefaultAndANamedProvider() throws {
        let base = try #require(URL(string: "https://api.example.com/auth"))
        let named = try TokenSwapEndpoints(baseURL: base, provider: "acme-2")
        #expect(named.swap.absoluteString == "https://api.example.com/auth/v1/acme-2/swap")
        #expect(named.refresh.path == "/auth/v1/acme-2/refresh")
        #expect(named.deviceCode.path == "/auth/v1/acme-2/device/code")
        #expect(named.deviceToken.path == "/auth/v1/acme-2/device/token")
        #expect(named.revoke.path == "/auth/v1/acme-2/revoke")
        #expect(named.introspect.path == "/auth/v1/acme-2/introspect")
        let fallback = try TokenSwapEndpoints(baseURL: base)
        #expect(fallback.swap.path == "/auth/v1/swap")
        #expect(fallback.deviceToken.path == "/auth/v1/device/token")
    }

    @Test(arguments: ["", "Acme", "a/b", "a b", String(repeating: "a", count: 33), "../x"])
    func aProviderNameNoDeploymentCouldServeIsRefused(name: String) throws {
        let base = try #require(URL(string: "https://api.example.com"))
        #expect(throws: TokenSwapClientError.self) {
            try TokenSwapEndpoints(baseURL: base, provider: name)
        }
    }

    @Test func aBaseURLThatIsNotHTTPIsRefused() throws {
        #expect(throws: TokenSwapClientError.self) {
            try TokenSwapEndpoints(baseURL: URL(fileURLWithPath: "/tmp"))
        }
    }

    @Test func formEncodingKeepsEveryByte() {
        #expect(FormBody.encode("aZ09*-._") == "aZ09*-._")
        #expect(FormBody.encode("a b+c&d=e/é~") == "a+b%2Bc%26d%3De%2F%C3%A9%7E")
        let body = FormBody([("code", "x y"), ("redirect_uri", "app://cb?q=1")]).encoded
        #expect(
            String(decoding: body, as: UTF8.self) == "code=x+y&redirect_uri=app%3A%2F%2Fcb%3Fq%3D1")
    }

    @Test func aRequestIsAFormPOST() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        _ = try await fixture.session.backend.swap(code: "a+b c")
        #expect(await fixture.server.requests.first?.form == ["code": "a+b c"])
    }

    @Test(
        arguments: [
            (#"{"access_token":"a","expires_in":3600}"#, 3600),
            (#"{"access_token":"a","expires_in":"3600"}"#, 3600),
            (#"{"access_token":"a","expires_in":" 90 "}"#, 90),
            (#"{"access_token":"a","expires_in":59.9}"#, 59),
            (#"{"access_token":"a","expires_in":"soon"}"#, nil),
            (#"{"access_token":"a","expires_in":-5}"#, nil),
            (#"{"access_token":"a"}"#, nil),
        ] as [(String, Int?)])
    func expiresInIsAnIntegerOrANumericString(json: String, seconds: Int?) throws {
        #expect(try TokenAnswer(json: Data(json.utf8)).expiresInSeconds == seconds)
    }

    @Test(arguments: ["", "[]", #"{"token_type":"Bearer"}"#, #"{"access_token":""}"#, "<html>"])
    func anAnswerWithoutAnAccessTokenIsUnexpected(json: String) {
        #expect(throws: TokenSwapClientError.unexpectedAnswer(status: 200)) {
            try TokenAnswer(json: Data(json.utf8))
        }
    }

    /// No answer at all: the error says which (`URLError.Code`, so an app can tell
    /// offline from a timeout) and in words, and neither holds the token it carried.
    @Test(arguments: [URLError.Code.notConnectedToInternet, .timedOut, .secureConnectionFailed])
    func aNetworkErrorCarriesItsCode(code: URLError.Code) async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        await fixture.server.script("/v1/refresh", .noAnswer(code))
        do {
            _ = try await fixture.session.backend.refresh(RedactedToken("refresh-secret"))
            Issue.record("expected a network error")
        } catch let error as TokenSwapClientError {
            #expect(error == .network(code: code, detail: "URLError \(code.rawValue)"))
            #expect(error.urlErrorCode == code)
            #expect(error.description == "network error: URLError \(code.rawValue)")
            #expect(!String(reflecting: error).contains("refresh-secret"))
        }
    }

    /// An app's own transport may throw something that is no `URLError`: no code, and
    /// its type's name (never its text, which might quote the request).
    @Test func aTransportsOwnErrorHasNoCode() async throws {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "refused body token=refresh-secret" }
        }
        struct Failing: HTTPTransport {
            func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
                throw Refused()
            }
        }
        let endpoints = try TokenSwapEndpoints(baseURL: try #require(URL(string: "https://t.test")))
        let backend = TokenSwapBackend(endpoints: endpoints, transport: Failing())
        do {
            _ = try await backend.refresh(RedactedToken("refresh-secret"))
            Issue.record("expected a network error")
        } catch let error as TokenSwapClientError {
            #expect(error == .network(code: nil, detail: "Refused"))
            #expect(error.urlErrorCode == nil)
            #expect(!String(reflecting: error).contains("refresh-secret"))
        }
        #expect(TokenSwapClientError.storageUnavailable.urlErrorCode == nil)
    }
}
