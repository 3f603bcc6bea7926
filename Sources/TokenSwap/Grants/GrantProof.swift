import HTTPCore
import Transport

/// The grants' side of CONTRACT §13, the step every swap, refresh, token and device request
/// runs first: its proof inspected, the answer decorated, and what it hands out bound as
/// the gate decides. Without a gate (`gate` nil), or for a provider whose DPoP is `off`, no
/// proof is read and nothing binds: the gate is not consulted, no outcome is counted (the
/// metric counts providers whose setting is not `off`), and a value bound before cannot be
/// proved (`invalid_grant`).
struct GrantProof: Sendable {
    let gate: DPoPGate?

    /// Inspects the request's proof, then runs `body` with the inspection and a completion
    /// that puts a fresh `DPoP-Nonce` on the answer where one is due. Without a gate, or
    /// with the provider's DPoP `off`, the inspection is nil and `completion` runs as it is.
    func proving(
        _ request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (EndpointAnswer) -> Void,
        _ body:
            @escaping @Sendable (
                DPoPInspection?, _ completion: @escaping @Sendable (EndpointAnswer) -> Void
            ) -> Void
    ) {
        guard let gate, provider.dpopMode != .off else { return body(nil, completion) }
        gate.inspect(request, provider: provider) { inspection in
            // Only an answer to a request with a `DPoP` header gets a nonce; the others
            // (every refresh of an app without DPoP) keep their completion as it is.
            guard inspection.carriedHeader else { return body(inspection, completion) }
            body(inspection) { answer in completion(gate.decorate(answer, inspection)) }
        }
    }

    /// The inspection, awaited (the device endpoints run as tasks).
    func inspect(_ request: HTTPRequest, provider: Provider) async -> DPoPInspection? {
        guard let gate, provider.dpopMode != .off else { return nil }
        return await awaiting { gate.inspect(request, provider: provider, completion: $0) }
    }

    /// `answer` decorated as `proving` decorates.
    func decorated(_ answer: EndpointAnswer, _ inspection: DPoPInspection?) -> EndpointAnswer {
        guard let gate, let inspection else { return answer }
        return gate.decorate(answer, inspection)
    }

    /// The thumbprint the answer is bound to (`DPoPGate.binding`). Without an inspection
    /// (no gate, or DPoP `off`) nothing binds, and a value bound before cannot be proved:
    /// `invalid_grant`.
    func binding(_ inspection: DPoPInspection?, bound: [UInt8]?, provider: Provider)
        throws(GrantError) -> [UInt8]?
    {
        guard let gate, let inspection else {
            if bound != nil { throw .dpopKeyMismatch }
            return nil
        }
        return try gate.binding(inspection, bound: bound, provider: provider)
    }
}
