import Foundation
import HTTPClient
import Testing

@testable import TokenSwap

@Suite struct ProviderTokenRequestTests {
    static func provider(
        _ method: ClientAuthMethod, id: String = "my-id", secret: String = "s3cr:et&"
    ) throws -> Provider {
        Provider(
            name: "acme", preset: .generic,
            tokenURL: try UpstreamURL("https://auth.example:8443/oauth/token?tenant=1"),
            clientID: id, clientSecret: Secret(secret), authMethod: method,
            redirectURI: "myapp://cb")
    }

    static func form(_ request: HTTPClientRequest) throws -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in try FormURLEncoding.decode(request.body) { fields[name] = value }
        return fields
    }

    @Test func basicAuthPutsFormEncodedCredentialsInTheHeaderOnly() throws {
        let provider = try Self.provider(.clientSecretBasic)
        let request = provider.tokenRequest(
            for: .authorizationCode(code: "the-code", redirectURI: "myapp://cb", codeVerifier: nil))
        let expected = "Basic " + Data("my-id:s3cr%3Aet%26".utf8).base64EncodedString()
        #expect(request.headers["Authorization"] == expected)
        let fields = try Self.form(request)
        #expect(
            fields == [
                "grant_type": "authorization_code", "code": "the-code",
                "redirect_uri": "myapp://cb",
            ])
        #expect(request.method == .post)
        #expect(request.origin == Origin(scheme: .https, host: "auth.example", port: 8443))
        #expect(request.target == "/oauth/token?tenant=1")
        #expect(!request.target.contains("s3cr"))
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    @Test func postAuthPutsCredentialsInTheBody() throws {
        let provider = try Self.provider(.clientSecretPost)
        let request = provider.tokenRequest(for: .refreshToken("raw-refresh"))
        #expect(request.headers["Authorization"] == nil)
        let fields = try Self.form(request)
        #expect(
            fields == [
                "grant_type": "refresh_token", "refresh_token": "raw-refresh", "client_id": "my-id",
                "client_secret": "s3cr:et&",
            ])
        #expect(!request.target.contains("s3cr"))
    }

    @Test func codeVerifierIsForwarded() throws {
        let request = try Self.provider(.clientSecretBasic).tokenRequest(
            for: .authorizationCode(
                code: "c", redirectURI: "myapp://cb", codeVerifier: "verifier-123"))
        #expect(try Self.form(request)["code_verifier"] == "verifier-123")
    }

    @Test func grantNeverPrintsItsValues() {
        #expect("\(TokenGrant.refreshToken("raw-refresh"))" == "TokenGrant(refresh_token)")
        #expect(
            !"\(TokenGrant.authorizationCode(code: "c0de", redirectURI: "x:y", codeVerifier: "v"))"
                .contains("c0de"))
    }
}
