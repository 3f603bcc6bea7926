import Foundation
import HTTPClient
import HTTPCore
import Synchronization
import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

/// The device authorization request tokenswap sends upstream (CONTRACT §7): `client_id`
/// in the form body exactly once whatever `_DEVICE_CLIENT_AUTH` is, because RFC 8628
/// §3.1 servers such as oauthlib's (django-oauth-toolkit) refuse the request without it
/// even when the client authenticates with `Authorization: Basic`.
@Suite struct DeviceAuthorizationRequestTests {
    typealias F = GrantEndpointsFixtures
    static let codePath = "/v1/spotify/device/code"
    static let deviceAnswer =
        #"{"device_code":"dc-raw","user_code":"ABCD-EFGH","verification_uri":"https://provider.example/device","expires_in":600,"interval":5}"#

    static func provider(deviceAuth: ClientAuthMethod) throws -> Provider {
        Provider(
            name: "spotify", preset: .generic,
            tokenURL: try UpstreamURL("https://accounts.example/api/token"),
            clientID: "client-1", clientSecret: Secret(F.secret),
            authMethod: .clientSecretBasic, redirectURI: "myapp://callback",
            device: ProviderDeviceSettings(
                url: try UpstreamURL("https://accounts.example/device/code"),
                clientAuth: deviceAuth))
    }

    /// Every field of a form body in order, repeats kept (a dictionary would hide a
    /// second `client_id`).
    static func fieldList(_ request: HTTPClientRequest) throws -> [(String, String)] {
        try FormURLEncoding.decode(request.body).map { ($0.name, $0.value) }
    }

    @Test(arguments: ClientAuthMethod.allCases)
    func deviceRequestNamesTheClientInTheBodyOnce(_ method: ClientAuthMethod) async throws {
        let provider = try Self.provider(deviceAuth: method)
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.deviceAnswer))
        let service = try F.service(upstream)
        let answer = await service.deviceCode(
            F.form("scope=read", path: Self.codePath), provider: provider
        ).response
        #expect(answer.status.code == 200)
        let sent = try #require(upstream.requests.first)
        let fields = try Self.fieldList(sent)
        #expect(fields.filter { $0.0 == "client_id" }.map(\.1) == ["client-1"], "\(method)")
        #expect(fields.filter { $0.0 == "scope" }.map(\.1) == ["read"])
        #expect(!sent.target.contains("client_id"))
        let body = String(decoding: sent.body, as: UTF8.self)
        switch method {
        case .clientSecretBasic:
            #expect(
                sent.headers["Authorization"]
                    == Provider.basicCredentials(clientID: "client-1", clientSecret: F.secret))
            #expect(!body.contains(F.secret))
            #expect(fields.count == 2)
        case .clientSecretPost:
            #expect(sent.headers["Authorization"] == nil)
            #expect(fields.filter { $0.0 == "client_secret" }.map(\.1) == [F.secret])
            #expect(fields.count == 3)
        case .none:
            #expect(sent.headers["Authorization"] == nil)
            #expect(!body.contains(F.secret))
            #expect(fields.count == 2)
        }
    }

    /// Against a provider that refuses as oauthlib does (`400 invalid_request`, "Missing
    /// client_id parameter.") when the body lacks `client_id`, every setting gets a
    /// device code; the secret is nowhere in what the app is answered.
    @Test(arguments: ClientAuthMethod.allCases)
    func oauthlibStyleProviderIssuesACodeInEveryMode(_ method: ClientAuthMethod) async throws {
        let provider = try Self.provider(deviceAuth: method)
        let upstream = OAuthlibDeviceEndpoint(answer: Self.deviceAnswer)
        let service = try F.service(upstream)
        let answer = await service.deviceCode(F.form("", path: Self.codePath), provider: provider)
            .response
        let body = String(decoding: answer.body, as: UTF8.self)
        #expect(answer.status.code == 200, "\(method): \(body)")
        #expect(try F.body(answer)["user_code"]?.stringValue == "ABCD-EFGH")
        #expect(!body.contains(F.secret))
        #expect(upstream.refusals == 0)
    }
}

/// The device authorization endpoint of an oauthlib-based server (django-oauth-toolkit):
/// `client_id` is required in the body whatever the client authentication
/// (oauthlib's `DeviceAuthorizationEndpoint` validates it before anything else).
final class OAuthlibDeviceEndpoint: UpstreamTransport {
    private let answer: String
    private let refused = Atomic(0)

    init(answer: String) {
        self.answer = answer
    }

    var refusals: Int { refused.load(ordering: .relaxed) }

    func send(
        _ request: HTTPClientRequest, timeoutSeconds: Double,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void
    ) {
        let fields = (try? FormURLEncoding.decode(request.body)) ?? []
        guard fields.contains(where: { $0.name == "client_id" && !$0.value.isEmpty }) else {
            refused.add(1, ordering: .relaxed)
            return completion(
                .success(
                    Self.json(
                        400,
                        #"{"error":"invalid_request","error_description":"Missing client_id parameter."}"#
                    )))
        }
        completion(.success(Self.json(200, answer)))
    }

    static func json(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(
            status: HTTPStatus(code: status, reasonPhrase: "X"),
            headers: HTTPHeaders([("Content-Type", "application/json")]), body: Array(body.utf8))
    }
}
