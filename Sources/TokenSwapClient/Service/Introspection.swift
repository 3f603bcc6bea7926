/// An introspection answer (RFC 7662 §2.2 shape, CONTRACT §8): the seeds' `tokenIsValid`.
public struct Introspection: Sendable, Hashable {
    public let active: Bool
    public let scope: String?
    /// Expiry as seconds since 1970 on the provider's clock.
    public let expiresAtEpochSeconds: Int?
    public let clientID: String?

    public init(
        active: Bool, scope: String? = nil, expiresAtEpochSeconds: Int? = nil,
        clientID: String? = nil
    ) {
        self.active = active
        self.scope = scope
        self.expiresAtEpochSeconds = expiresAtEpochSeconds
        self.clientID = clientID
    }

    init(_ object: JSONObject) {
        self.init(
            active: object.bool("active") ?? false, scope: object.string("scope"),
            expiresAtEpochSeconds: object.seconds("exp"), clientID: object.string("client_id"))
    }
}
