import HTTPCore

/// A grant that answers by callback, the service's hot paths (`SwapGrant`, `RefreshGrant`):
/// it runs from its request's decoded fields, which the token endpoint hands it after
/// decoding its own body once (CONTRACT §8), and its own route decodes here.
protocol CallbackGrant: Sendable {
    /// The grant's name in the logged outcome (`authorization_code`, `refresh_token`).
    static var outcomeName: String { get }

    /// The grant for already decoded fields. `request` is read for its proof and the
    /// client's address, not for its body.
    func answer(
        fields: TokenRequestFields, request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (EndpointAnswer) -> Void)
}

extension CallbackGrant {
    /// The grant of one request: its body decoded (a failure answered as this grant's),
    /// then `answer(fields:…)`.
    func answer(
        _ request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        guard
            let fields = GrantAnswer.decodedFields(
                request, provider: provider, grant: Self.outcomeName, completion)
        else { return }
        answer(fields: fields, request: request, provider: provider, completion: completion)
    }
}
