import HTTPCore
import Transport

/// A `RateLimiter` keyed by the client address a request comes from (the TCP peer, or
/// `X-Forwarded-For` from a trusted proxy), for limits one endpoint adds on top of
/// `TOKENSWAP_RATE_LIMIT`: `/device/code`'s `TOKENSWAP_DEVICE_RATE_LIMIT` (RFC 8628 §5.4),
/// `/introspect`'s `TOKENSWAP_INTROSPECTION_RATE_LIMIT` (RFC 7662 §4).
///
/// With a shared store (`TOKENSWAP_STATE_URL`, CONTRACT §12), `shared` counts the buckets
/// there, so the limit holds across copies; without one, the limiter counts in this copy's
/// memory exactly as before the store existed.
public struct ClientRateLimit: Sendable {
    package let limiter: RateLimiter
    package let trustedProxies: TrustedProxies
    /// The shared store and the limit's name (its keys' scope); nil: this copy's memory.
    package private(set) var shared: (store: any StateStore, name: String)?

    package init(limiter: RateLimiter, trustedProxies: TrustedProxies) {
        self.limiter = limiter
        self.trustedProxies = trustedProxies
    }

    /// This limit counted in `store` under `name` (one name per limit: the keys of two
    /// limits never meet).
    package func counted(in store: (any StateStore)?, name: String) -> ClientRateLimit {
        var limit = self
        limit.shared = store.map { ($0, name) }
        return limit
    }

    /// `perMinute` requests a minute, all of them allowed at once (the burst), IPv6
    /// clients keyed by `ipv6PrefixLength` bits (and their /48, `RateLimiter`); nil when 0
    /// (off), counted on `clock` (tests inject one). Made through
    /// `ServiceConfiguration.clientRateLimit(perMinute:)`, so every
    /// per-client limit keys its clients the same way.
    package init?(
        perMinute: Double, trustedProxies: TrustedProxies, ipv6PrefixLength: Int,
        clock: @escaping @Sendable () -> Deadline = { .now }
    ) {
        guard perMinute > 0 else { return nil }  // NaN too
        // Saturating: a huge setting is "no practical limit", never a trap in Int(_:).
        let burst = perMinute < 1e15 ? max(1, Int(perMinute.rounded(.up))) : Int.max
        self.init(
            limiter: RateLimiter(
                ratePerSecond: perMinute / 60, burst: burst, ipv6PrefixLength: ipv6PrefixLength,
                clock: clock),
            trustedProxies: trustedProxies)
    }

    /// The address `request` counts against (the TCP peer, or the client a trusted proxy
    /// names).
    package func client(of request: HTTPRequest) -> String {
        trustedProxies.clientAddress(
            peer: request.remoteAddress, forwardedFor: request.headers.values("X-Forwarded-For"))
    }

    package func take(for request: HTTPRequest) -> RateDecision {
        limiter.take(for: client(of: request))
    }

    /// Gives back what `take(for:)` just took for `request`'s client.
    package func giveBack(for request: HTTPRequest) {
        limiter.giveBack(for: client(of: request))
    }

    /// Takes one token for `request`'s client, in the shared store when there is one
    /// (answered from its loop), else at once in memory (`take(for:)`, no hop).
    package func take(
        for request: HTTPRequest, completion: @escaping @Sendable (RateDecision) -> Void
    ) {
        let client = client(of: request)
        guard let shared else { return completion(limiter.take(for: client)) }
        Self.take(client, limiter: limiter, store: shared.store, name: shared.name, completion)
    }

    /// `take(for:completion:)`, awaited.
    package func take(for request: HTTPRequest) async -> RateDecision {
        guard shared != nil else { return limiter.take(for: client(of: request)) }
        return await awaiting { take(for: request, completion: $0) }
    }

    /// The client's bucket, then (IPv6) its network's, as `RateLimiter.take` counts them:
    /// a request either refuses is refused, and a network's refusal gives the client's
    /// token back. A store error (possible only without a fallback) lets the request
    /// through: a limit that cannot count must not refuse everyone.
    static func take(
        _ client: String, limiter: RateLimiter, store: any StateStore, name: String,
        _ completion: @escaping @Sendable (RateDecision) -> Void
    ) {
        let (clientValue, networkValue) = limiter.keys(for: client)
        guard let clientKey = StateKey(.rateLimit, scope: name, value: clientValue) else {
            return completion(.allowed)
        }
        let clientLimit = limiter.clientLimit
        store.take(clientKey, limit: clientLimit) { result in
            let decision = (try? result.get()) ?? .allowed
            guard decision == .allowed, let networkValue, let networkLimit = limiter.networkLimit,
                let networkKey = StateKey(.rateLimit, scope: name + "/network", value: networkValue)
            else { return completion(decision) }
            store.take(networkKey, limit: networkLimit) { result in
                let networkDecision = (try? result.get()) ?? .allowed
                if networkDecision != .allowed {
                    store.giveBack(clientKey, limit: clientLimit) { _ in }
                }
                completion(networkDecision)
            }
        }
    }
}
