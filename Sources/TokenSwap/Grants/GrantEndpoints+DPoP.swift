import HTTPCore
import Sealing
import Transport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The grant endpoints' side of CONTRACT §13: each swap, refresh, token and device
/// request runs after its proof is inspected, with the answer decorated, and seals what it
/// hands out with the binding the gate decided.
extension GrantEndpoints {
    /// Inspects the request's proof, then runs `body` with the inspection and a completion
    /// that puts a fresh `DPoP-Nonce` on the answer where one is due. Without a gate
    /// (DPoP not configured) the inspection is nil.
    func provingDPoP(
        _ request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (EndpointAnswer) -> Void,
        _ body:
            @escaping @Sendable (
                DPoPInspection?, _ completion: @escaping @Sendable (EndpointAnswer) -> Void
            ) -> Void
    ) {
        guard let dpop else { return body(nil, completion) }
        dpop.inspect(request, provider: provider) { inspection in
            // Only an answer to a request with a `DPoP` header gets a nonce; the others
            // (every refresh of an app without DPoP) keep their completion as it is.
            guard inspection.carriedHeader else { return body(inspection, completion) }
            body(inspection) { answer in completion(dpop.decorate(answer, inspection)) }
        }
    }

    /// The inspection, awaited (the device endpoints run as tasks).
    func inspectDPoP(_ request: HTTPRequest, provider: Provider) async -> DPoPInspection? {
        guard let dpop else { return nil }
        return await awaiting { dpop.inspect(request, provider: provider, completion: $0) }
    }

    /// `answer` decorated as `provingDPoP` decorates.
    func decorated(_ answer: EndpointAnswer, _ inspection: DPoPInspection?) -> EndpointAnswer {
        guard let dpop, let inspection else { return answer }
        return dpop.decorate(answer, inspection)
    }

    /// The thumbprint the answer is bound to (`DPoPGate.binding`). Without a gate nothing
    /// binds, and a value bound before cannot be proved: `invalid_grant`.
    func dpopBinding(_ inspection: DPoPInspection?, bound: [UInt8]?, provider: Provider)
        throws(GrantError) -> [UInt8]?
    {
        guard let dpop, let inspection else {
            if bound != nil { throw .dpopKeyMismatch }
            return nil
        }
        return try dpop.binding(inspection, bound: bound, provider: provider)
    }
}
