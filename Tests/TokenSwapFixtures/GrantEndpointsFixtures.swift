import Foundation
import HTTPClient
import HTTPCore
import Sealing

@testable import TokenSwap

/// Providers, key rings and requests for handler tests.
enum GrantEndpointsFixtures {
    static let secret = ConfigurationFixtures.secret
    static let oldKey = "old:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
    static let newKey = "new:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8"

    static func provider(
        name: String = "spotify", auth: ClientAuthMethod = .clientSecretBasic,
        clientID: String = "client-1", familyPolicy: GrantFamilyPolicy = GrantFamilyPolicy()
    ) throws -> Provider {
        Provider(
            name: name, preset: .generic,
            tokenURL: try UpstreamURL("https://accounts.example/api/token"),
            clientID: clientID, clientSecret: Secret(secret), authMethod: auth,
            redirectURI: "myapp://callback",
            allowedRedirectURIs: ["myapp://dev-callback"], familyPolicy: familyPolicy)
    }

    static func service(
        _ upstream: any UpstreamTransport, keys: String = newKey + "," + oldKey,
        logs: LogCapture = LogCapture()
    )
        throws -> GrantEndpoints
    {
        GrantEndpoints(
            keyRing: try KeyRing(parsing: keys), transport: upstream, upstreamTimeoutSeconds: 2,
            logger: logs.logger)
    }

    static func form(_ body: String, path: String = "/v1/swap") -> HTTPRequest {
        HTTPRequest(
            method: .post, target: path,
            headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]),
            body: Array(body.utf8))
    }

    static func json(_ body: String, path: String = "/v1/swap") -> HTTPRequest {
        HTTPRequest(
            method: .post, target: path,
            headers: HTTPHeaders([("Content-Type", "application/json")]),
            body: Array(body.utf8))
    }

    static func sentFields(_ request: HTTPClientRequest) throws -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in try FormURLEncoding.decode(request.body) { fields[name] = value }
        return fields
    }

    static func body(_ response: HTTPResponse) throws -> JSONValue {
        try JSONParser.parse(response.body)
    }

    static func seal(_ raw: String, keys: String, provider: Provider) throws -> String {
        try KeyRing(parsing: keys).seal(
            raw, context: SealingContext(provider: provider.name, clientID: provider.clientID))
    }

    static func open(_ sealed: String, keys: String, provider: Provider) throws -> OpenedToken {
        try KeyRing(parsing: keys).open(
            sealed, context: SealingContext(provider: provider.name, clientID: provider.clientID))
    }
}
