import HTTPCore
import Sealing

/// How every grant answers: a token request's result as the client's response (every
/// failure through `GrantError.response`) with the outcome the pipeline logs, and the 200
/// body made from the provider's members.
enum GrantAnswer {
    /// Runs one token request's `body` and turns its result into the answer.
    static func answer(
        provider: Provider, grant: String,
        _ body: () async throws(GrantError) -> HTTPResponse
    ) async -> EndpointAnswer {
        do {
            return answer(.success(try await body()), provider: provider, grant: grant)
        } catch {
            return answer(.failure(error), provider: provider, grant: grant)
        }
    }

    /// A token request's result as its answer: the response (every failure through
    /// `GrantError.response`) and the outcome the pipeline logs.
    static func answer(
        _ result: Result<HTTPResponse, GrantError>, provider: Provider, grant: String
    ) -> EndpointAnswer {
        switch result {
        case .success(let response):
            EndpointAnswer(
                response,
                outcome: RequestOutcome(provider: provider.name, grant: grant, result: "ok"))
        case .failure(let error):
            EndpointAnswer(
                error.response,
                outcome: RequestOutcome(
                    provider: provider.name, grant: grant, result: error.errorCode))
        }
    }

    /// What a callback-shaped grant finishes with: its result, answered through
    /// `completion` as `answer` shapes it.
    static func answering(
        provider: Provider, grant: String,
        _ completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) -> @Sendable (Result<HTTPResponse, GrantError>) -> Void {
        { result in completion(answer(result, provider: provider, grant: grant)) }
    }

    /// The fields of a grant's request body, or nil once the decoding failure has been
    /// answered through `completion` (`/v1/swap` and `/v1/refresh` decode here; the token
    /// endpoint decodes its own, once, and hands the fields on).
    static func decodedFields(
        _ request: HTTPRequest, provider: Provider, grant: String,
        _ completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) -> TokenRequestFields? {
        do throws(GrantError) {
            return try TokenRequestFields.decode(request)
        } catch {
            completion(answer(.failure(error), provider: provider, grant: grant))
            return nil
        }
    }

    /// The 200 answer: the provider's members with `refresh_token` set to `refreshToken`
    /// (replacing the raw one in place, or appended), or removed when nil.
    static func success(_ response: ProviderTokenResponse, refreshToken: String?) -> HTTPResponse {
        // The provider's members in their order, `refresh_token` (at most one: the parser
        // refuses a repeated member) replaced in its place by `refreshToken`, or removed;
        // added at the end when the provider sent none. One array, made at its size.
        let ours = refreshToken.map { JSONValue.Member("refresh_token", .string($0)) }
        var members: [JSONValue.Member] = []
        members.reserveCapacity(response.members.count + 1)
        var replaced = false
        for member in response.members {
            guard member.name == "refresh_token" else {
                members.append(member)
                continue
            }
            if let ours { members.append(ours) }
            replaced = true
        }
        if let ours, !replaced { members.append(ours) }
        return HTTPResponse(
            status: .ok, headers: TokenResponseHeaders.base,
            body: JSONValue.object(members).serialized)
    }

    /// The answer to a grant's first tokens (a swap, a device approval): the provider's
    /// refresh token, if it issued one, sealed in a new grant family (CONTRACT §14) bound to
    /// `binding` (§13).
    static func firstTokens(
        _ tokens: ProviderTokenResponse, provider: Provider, binding: [UInt8]?,
        families: GrantFamilies, sealer: TokenSealer
    ) throws(GrantError) -> HTTPResponse {
        var sealed: String?
        var grant: SealedGrant?
        if let raw = tokens.refreshToken {
            let family = try families.newGrant(thumbprint: binding)
            sealed = try sealer.seal(raw, for: provider, grant: family)
            grant = family
        }
        return success(
            families.withLifetime(tokens, grant: grant, provider: provider), refreshToken: sealed)
    }
}

/// Headers on every grant endpoint response, success or error (CONTRACT §2; RFC 6749
/// §5.1: tokens must not be cached).
public enum TokenResponseHeaders {
    public static let base = HTTPHeaders([
        ("Content-Type", "application/json"),
        ("Cache-Control", "no-store"),
        ("Pragma", "no-cache"),
    ])
}
