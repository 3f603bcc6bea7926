import HTTPCore
import Logging
import Sealing

/// The swap and refresh endpoints (CONTRACT §2) over an `UpstreamTransport`: decode the
/// request, open or seal refresh tokens, call the provider once, and answer. Every
/// failure is a `TokenEndpointError`, turned into a response in one place.
public struct TokenEndpoints: Sendable {
    public let keyRing: KeyRing
    public let transport: any UpstreamTransport
    public let upstreamTimeoutSeconds: Double
    public let logger: Logger
    /// Upstream outcomes, sealing failures and opens by key id are counted here.
    public let metrics: ServiceMetrics

    public init(
        keyRing: KeyRing, transport: any UpstreamTransport, upstreamTimeoutSeconds: Double,
        logger: Logger, metrics: ServiceMetrics = ServiceMetrics()
    ) {
        self.keyRing = keyRing
        self.transport = transport
        self.upstreamTimeoutSeconds = upstreamTimeoutSeconds
        self.logger = logger
        self.metrics = metrics
    }

    /// What a sealed token is bound to: a token sealed for one provider or client id does
    /// not open for another (CONTRACT §4).
    static func context(_ provider: Provider) -> SealingContext {
        SealingContext(provider: provider.name, clientID: provider.clientID)
    }

    /// Sends `grant` to the provider and interprets the answer.
    func exchange(_ grant: TokenGrant, with provider: Provider) async throws(TokenEndpointError)
        -> ProviderTokenResponse
    {
        let answer: HTTPResponse
        do {
            answer = try await transport.send(
                provider.tokenRequest(for: grant), timeoutSeconds: upstreamTimeoutSeconds)
        } catch {
            metrics.upstream(provider: provider.name, UpstreamOutcome(error))
            throw TokenEndpointError(error)
        }
        do {
            let interpreted = try ProviderTokenResponse.interpret(answer)
            metrics.upstream(provider: provider.name, .ok)
            return interpreted
        } catch {
            metrics.upstream(
                provider: provider.name, UpstreamOutcome(status: answer.status.code, error: error))
            throw error
        }
    }

    /// Seals a raw provider refresh token for the client.
    func seal(_ rawToken: String, for provider: Provider) throws(TokenEndpointError) -> String {
        do {
            return try keyRing.seal(rawToken, context: Self.context(provider))
        } catch .plaintextTooLong {
            metrics.sealingFailed(.seal, reason: "too_long")
            throw .upstreamError(reason: "provider refresh token too long to seal")
        } catch {
            metrics.sealingFailed(.seal, reason: "crypto_unavailable")
            throw .temporarilyUnavailable(reason: "sealing failed: \(error)")
        }
    }

    /// The 200 answer: the provider's members with `refresh_token` set to `refreshToken`
    /// (replacing the raw one in place, or appended), or removed when nil.
    static func success(_ response: ProviderTokenResponse, refreshToken: String?) -> HTTPResponse {
        var members = response.members.filter { $0.name != "refresh_token" }
        if let refreshToken {
            let member = JSONValue.Member("refresh_token", .string(refreshToken))
            if let index = response.members.firstIndex(where: { $0.name == "refresh_token" }) {
                members.insert(member, at: index)
            } else {
                members.append(member)
            }
        }
        return HTTPResponse(
            status: .ok, headers: TokenResponseHeaders.base,
            body: JSONValue.object(members).serialized)
    }
}
