import HTTPCore

/// An introspection answer in RFC 7662 §2.2's shape: `{"active":true, …}` with the
/// members the provider gave (normalised), or `{"active":false}` and nothing else (§2.2:
/// an inactive token reveals nothing more).
package enum IntrospectionResult: Sendable, Equatable {
    case active([JSONValue.Member])
    case inactive

    package var label: String {
        switch self {
        case .active: "active"
        case .inactive: "inactive"
        }
    }

    /// RFC 7662 §2.2's members, the only ones passed on: a provider's other members
    /// (GitHub echoes the token itself) stay behind.
    static let stringMembers: Set<String> = [
        "scope", "client_id", "username", "token_type", "sub", "aud", "iss", "jti",
    ]
    /// Seconds since the epoch; normalised to JSON integers (Google sends strings).
    static let timeMembers: Set<String> = ["exp", "iat", "nbf"]

    /// `active` with `members` filtered to RFC 7662's and normalised: strings kept as
    /// strings, times as integers (from numbers or numeric strings); anything else dropped.
    static func active(normalising members: [JSONValue.Member]) -> IntrospectionResult {
        var kept: [JSONValue.Member] = [.init("active", .bool(true))]
        for member in members where !kept.contains(where: { $0.name == member.name }) {
            if stringMembers.contains(member.name), case .string(let text) = member.value {
                kept.append(.init(member.name, .string(text)))
            } else if timeMembers.contains(member.name),
                let seconds = ProviderTokenResponse.normalisedExpiresIn(member.value)
            {
                kept.append(.init(member.name, .number(String(seconds))))
            }
        }
        return .active(kept)
    }

    /// `200` with the JSON body and the no-store headers of every token response.
    var response: HTTPResponse {
        let body: JSONValue
        switch self {
        case .active(let members): body = .object(members)
        case .inactive: body = .object([.init("active", .bool(false))])
        }
        return HTTPResponse(status: .ok, headers: TokenResponseHeaders.base, body: body.serialized)
    }
}
