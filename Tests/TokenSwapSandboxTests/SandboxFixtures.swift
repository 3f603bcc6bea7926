import Foundation
import HTTPClient
import HTTPCore

@testable import TokenSwap
@testable import TokenSwapFixtures
@testable import TokenSwapSandbox

/// A sandbox with two clients (basic and post auth) and helpers to drive it.
enum SandboxFixtures {
    typealias F = GrantEndpointsFixtures

    static func providers() throws -> (spotify: Provider, linkedin: Provider) {
        (
            try F.provider(),
            try F.provider(name: "linkedin", auth: .clientSecretPost, clientID: "client-li")
        )
    }

    /// On `clock`, which only the test moves: no lifetime or limit here depends on how
    /// fast the machine runs.
    static func sandbox(_ limits: SandboxLimits = SandboxLimits(), clock: TestClock = TestClock())
        throws -> SandboxProvider
    {
        let (spotify, linkedin) = try providers()
        return SandboxProvider(
            providers: [spotify, linkedin], defaultProvider: spotify, limits: limits,
            clock: { clock.deadline }, wallClock: clock.wallClock)
    }

    static func authorize(_ sandbox: SandboxProvider, _ query: String) -> HTTPResponse {
        sandbox.authorize(HTTPRequest(method: .get, target: "/sandbox/authorize?" + query))
    }

    /// The query parameters of the `Location` a 302 points to.
    static func redirectParameters(_ response: HTTPResponse) throws -> [String: String] {
        let location = try unwrap(response.headers["Location"])
        let query = location.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
        var parameters: [String: String] = [:]
        for (name, value) in try FormURLEncoding.decode(query.utf8) { parameters[name] = value }
        return parameters
    }

    /// Mints a code through the authorize endpoint.
    static func code(_ sandbox: SandboxProvider, _ extra: String = "") throws -> String {
        let response = authorize(sandbox, "redirect_uri=myapp%3A%2F%2Fcallback&state=s" + extra)
        return try unwrap(try redirectParameters(response)["code"])
    }

    /// A token request as the service would send it for `provider`.
    static func send(_ sandbox: SandboxProvider, _ provider: Provider, _ grant: TokenGrant)
        async throws -> HTTPResponse
    {
        try await sandbox.send(provider.tokenRequest(for: grant), timeoutSeconds: 1)
    }

    static func json(_ response: HTTPResponse) throws -> JSONValue {
        try JSONParser.parse(response.body)
    }

    struct Missing: Error {}

    /// Like `#require`, for helpers called from test bodies (the macro records the issue
    /// at the helper, not at the test).
    static func unwrap<T>(_ value: T?) throws -> T {
        guard let value else { throw Missing() }
        return value
    }
}
