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

/// CONTRACT §13 for the grant endpoints: reads a request's `DPoP` header at its
/// provider's setting, checks the proof (`DPoPProofChecker`) and its `jti` through §12's
/// store, decides what the answer is bound to (`binding`), counts
/// `tokenswap_dpop_proofs_total`, and puts a fresh `DPoP-Nonce` on every answer to a
/// request that carried the header (`decorate`).
///
/// One per service; each provider's mode is its `Provider.dpopMode`.
package final class DPoPGate: Sendable {
    let settings: DPoPSettings
    let checker: DPoPProofChecker
    let nonces: DPoPNonces
    let store: any StateStore
    let origin: DPoPRequestOrigin
    /// `TOKENSWAP_RATE_LIMIT_IPV6_PREFIX`: how a proof's client is keyed for its share of
    /// the proof ids (`ClientPrefix`, CONTRACT §13 and §15).
    let ipv6PrefixLength: Int
    let metrics: ServiceMetrics
    /// Wall-clock Unix seconds (`iat` and nonces are wall-clock by RFC 9449); injected by
    /// tests.
    let now: @Sendable () -> Int64
    private let counters = CounterCache<OutcomeKey>()

    private struct OutcomeKey: Hashable, Sendable {
        let provider: String
        let outcome: DPoPOutcome
    }

    /// Nil if OpenSSL cannot derive the nonce key from the ring.
    package init?(
        settings: DPoPSettings, keyRing: KeyRing, store: any StateStore, publicURL: String?,
        trustedProxies: TrustedProxies, servesTLS: Bool,
        ipv6PrefixLength: Int = ConfigurationDefaults.rateLimitIPv6PrefixLength,
        metrics: ServiceMetrics, now: @escaping @Sendable () -> Int64 = WallClock.system.now
    ) {
        guard let nonces = DPoPNonces(keyRing: keyRing) else { return nil }
        self.settings = settings
        self.nonces = nonces
        self.checker = DPoPProofChecker(
            maxAgeSeconds: settings.maxAgeSeconds,
            nonces: settings.noncesRequired ? nonces : nil)
        self.store = store
        self.origin = DPoPRequestOrigin(
            publicURL: publicURL, trustedProxies: trustedProxies, servesTLS: servesTLS)
        self.ipv6PrefixLength = ipv6PrefixLength
        self.metrics = metrics
        self.now = now
    }

    /// The gate of a loaded configuration, over `store`.
    package convenience init?(
        configuration: ServiceConfiguration, store: any StateStore, metrics: ServiceMetrics
    ) {
        self.init(
            settings: configuration.dpop, keyRing: configuration.keyRing, store: store,
            publicURL: configuration.publicURL,
            trustedProxies: TrustedProxies(configuration.trustedProxies),
            servesTLS: configuration.tls != nil,
            ipv6PrefixLength: configuration.rateLimitIPv6PrefixLength, metrics: metrics)
    }

    /// Checks the request's proof for `provider` and answers what it found, once, from
    /// the store's callback (the memory store answers before this returns).
    func inspect(
        _ request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (DPoPInspection) -> Void
    ) {
        let mode = provider.dpopMode
        let fields = request.headers.valueBytes("DPoP")
        guard mode != .off else {
            return completion(
                DPoPInspection(mode: .off, carriedHeader: false, proof: .success(nil)))
        }
        let carried = !fields.isEmpty
        @Sendable func finish(_ proof: Result<DPoPProof?, DPoPRefusal>) {
            completion(DPoPInspection(mode: mode, carriedHeader: carried, proof: proof))
        }
        guard carried else { return finish(.success(nil)) }
        guard let target = origin.target(of: request) else {
            return finish(
                .failure(.init(.invalidDPoPProof("the request has no host to prove"), .invalid)))
        }
        switch checker.check(
            fieldBytes: fields, method: request.method.rawValue, target: target,
            provider: provider.name, now: now())
        {
        case .failure(.nonceRequired):
            finish(.failure(.init(.useDPoPNonce, .nonceRequired)))
        case .failure(let failure):
            finish(.failure(.init(.invalidDPoPProof(failure.description), failure.outcome)))
        case .success(let proof):
            // The `jti` recorded with the checker's key and read by its verdict; the store's
            // callback is the one closure made for the record (it captures what `finish`
            // does, not `finish`, which would be a second).
            guard let key = proof.proofID else {
                let reason = DPoPProofChecker.digestFailed.description
                return finish(.failure(.init(.temporarilyUnavailable(reason: reason), nil)))
            }
            // The client is read only for a proof that passed: its share of the ids.
            let client = ClientPrefix(
                of: request, trustedProxies: origin.trustedProxies,
                ipv6PrefixLength: ipv6PrefixLength)
            store.recordProofID(key, client: client, keepFor: checker.replayWindow) { result in
                completion(
                    DPoPInspection(
                        mode: mode, carriedHeader: true, proof: Self.recorded(proof, result)))
            }
        }
    }

    /// A checked proof as the replay check's answer (`DPoPProofChecker.verdict`) leaves it.
    private static func recorded(
        _ proof: DPoPProof, _ result: Result<ProofIDRecording, StateStoreError>
    ) -> Result<DPoPProof?, DPoPRefusal> {
        switch DPoPProofChecker.verdict(result) {
        case .firstUse: .success(proof)
        case .replayed: .failure(.init(.invalidDPoPProof("DPoP proof replayed"), .replayed))
        // Says nothing about the proof, so no outcome is counted (as for a store failure).
        case .noRoom(let seconds):
            .failure(.init(.dpopProofIDsFull(retryAfterSeconds: seconds), nil))
        case .unavailable(let error):
            .failure(.init(.temporarilyUnavailable(reason: error.description), nil))
        }
    }

    /// What the answer to this request is bound to, given the thumbprint the presented
    /// sealed value is bound to (`bound`, nil for a new grant or an unbound value), and
    /// counts the outcome (CONTRACT §13):
    /// - a refused proof is refused (`invalid_dpop_proof`, `use_dpop_nonce`);
    /// - a bound value without a proof, or with another key's, is `invalid_grant`
    ///   (`key_mismatch`);
    /// - with `required`, no proof is `invalid_dpop_proof`;
    /// - otherwise a valid proof binds to its key (an unbound value adopts it), and no
    ///   proof binds nothing.
    func binding(_ inspection: DPoPInspection, bound: [UInt8]?, provider: Provider)
        throws(GrantError) -> [UInt8]?
    {
        let proof: DPoPProof?
        switch inspection.proof {
        case .failure(let refusal):
            if let outcome = refusal.outcome { count(outcome, provider: provider) }
            throw refusal.error
        case .success(let found):
            proof = found
        }
        if let bound {
            guard let proof,
                proof.thumbprint.withUnsafeBytes({ a in
                    bound.withUnsafeBytes { a.sameBytes(as: $0) }
                })
            else {
                count(.keyMismatch, provider: provider)
                throw .dpopKeyMismatch
            }
            count(.valid, provider: provider)
            return bound
        }
        guard let proof else {
            if inspection.mode != .off { count(.missing, provider: provider) }
            if inspection.mode == .required {
                throw .invalidDPoPProof("this provider requires a DPoP proof")
            }
            return nil
        }
        count(.valid, provider: provider)
        return proof.thumbprint
    }

    /// `answer` with a fresh `DPoP-Nonce` when the request carried a `DPoP` header and
    /// nonces are on (RFC 9449 §8.1: every answer, errors included, so the client's next
    /// proof can carry it).
    /// Takes the answer over (`consuming`): decorated in place, not copied first.
    func decorate(_ answer: consuming EndpointAnswer, _ inspection: DPoPInspection)
        -> EndpointAnswer
    {
        guard inspection.carriedHeader, settings.noncesRequired,
            let nonce = nonces.current(now: now())
        else { return answer }
        answer.response.headers.replaceOrAdd(name: "DPoP-Nonce", value: nonce)
        return answer
    }

    /// Whether discovery lists `dpop_signing_alg_values_supported` for `provider`.
    func advertises(_ provider: Provider) -> Bool {
        provider.dpopMode != .off
    }

    private func count(_ outcome: DPoPOutcome, provider: Provider) {
        counters.increment(OutcomeKey(provider: provider.name, outcome: outcome)) {
            metrics.registry.makeCounter(
                descriptor: MetricName.dpopProofs,
                labels: [("provider", provider.name), ("outcome", outcome.rawValue)])
        }
    }
}

/// What `DPoPGate.inspect` found in one request.
package struct DPoPInspection: Sendable {
    let mode: DPoPMode
    /// The request carried a `DPoP` field (and the provider's mode is not `off`).
    let carriedHeader: Bool
    /// The valid proof, nil when none was sent, or why the one sent is refused.
    let proof: Result<DPoPProof?, DPoPRefusal>
}

/// A refused proof: the answer, and the metric's outcome (nil for a store failure, which
/// says nothing about the proof).
struct DPoPRefusal: Error, Sendable {
    let error: GrantError
    let outcome: DPoPOutcome?

    init(_ error: GrantError, _ outcome: DPoPOutcome?) {
        self.error = error
        self.outcome = outcome
    }
}

/// The `outcome` label of `tokenswap_dpop_proofs_total{provider,outcome}` (CONTRACT §13):
/// one per request that could carry a proof at a provider whose setting is not `off`.
package enum DPoPOutcome: String, Sendable, CaseIterable {
    /// The proof is valid (and, for a bound token, by the bound key).
    case valid
    /// The proof breaks a rule of RFC 9449 §4.3.
    case invalid
    /// The proof lacks a current nonce: answered `use_dpop_nonce`.
    case nonceRequired = "nonce_required"
    /// The proof's `jti` was seen before.
    case replayed
    /// A valid proof by another key than the one the token is bound to, or no proof for a
    /// bound token.
    case keyMismatch = "key_mismatch"
    /// No proof, where none is bound or required (or, with `required`, refused).
    case missing
}

/// The service-wide DPoP settings of CONTRACT §13: `TOKENSWAP_DPOP_MAX_AGE_SECONDS`,
/// `TOKENSWAP_DPOP_NONCE` and `TOKENSWAP_DPOP_PROOF_IDS`. Each provider's mode
/// (`TOKENSWAP_<NAME>_DPOP`) is its `Provider.dpopMode`.
package struct DPoPSettings: Sendable, Equatable {
    /// `TOKENSWAP_DPOP_MAX_AGE_SECONDS`: how old a proof's `iat` may be.
    package static let defaultMaxAgeSeconds = 60
    /// Below a second no real client's proof arrives in time; beyond ten minutes a
    /// captured proof stays useful (and its `jti` kept) for too long.
    package static let maxAgeSecondsRange = SettingRange(1...600, expected: "seconds from 1 to 600")
    /// `TOKENSWAP_DPOP_PROOF_IDS`: the proof ids one copy keeps in memory, each for the
    /// whole `iat` window (`ProofIDTable`): about 1,400 proofs a second at the default
    /// window of 71 s, one client at most a sixteenth of that.
    package static let defaultProofIDs = 100_000
    /// At least 16, so every client's share holds one id; at most ten million, the replay
    /// table's bound too.
    package static let proofIDsRange = SettingRange(
        16...10_000_000, expected: "a whole number of proof ids from 16 to 10000000")

    package let maxAgeSeconds: Int
    /// `TOKENSWAP_DPOP_NONCE=on` (the default): proofs must carry a nonce tokenswap issued.
    package let noncesRequired: Bool
    /// `TOKENSWAP_DPOP_PROOF_IDS`: the size of the memory store's `ProofIDTable`.
    package let proofIDs: Int

    package init(
        maxAgeSeconds: Int = Self.defaultMaxAgeSeconds, noncesRequired: Bool = true,
        proofIDs: Int = Self.defaultProofIDs
    ) {
        self.maxAgeSeconds = maxAgeSeconds
        self.noncesRequired = noncesRequired
        self.proofIDs = proofIDs
    }

    /// Reads the settings from `source`.
    init(_ source: ConfigurationSource) throws(ConfigurationError) {
        let maxAge = try Self.maxAgeSecondsRange.checked(
            try source.int(.dpopMaxAgeSeconds) ?? Self.defaultMaxAgeSeconds,
            variable: ConfigurationKey.dpopMaxAgeSeconds.environmentName)
        let nonce = try ServiceConfiguration.choice(.dpopNonce, source, default: Switch.on)
        let proofIDs = try Self.proofIDsRange.checked(
            try source.int(.dpopProofIDs) ?? Self.defaultProofIDs,
            variable: ConfigurationKey.dpopProofIDs.environmentName)
        self.init(maxAgeSeconds: maxAge, noncesRequired: nonce == .on, proofIDs: proofIDs)
    }

    /// `TOKENSWAP_DPOP_NONCE`'s values.
    enum Switch: String, CaseIterable {
        case on, off
    }
}

/// `TOKENSWAP_<NAME>_DPOP` (CONTRACT §13): what a provider does with `DPoP` headers.
public enum DPoPMode: String, Sendable, CaseIterable {
    /// A valid proof binds; no proof binds nothing, so clients that cannot send proofs
    /// work as before (the default).
    case optional
    /// A swap, refresh, token or device request without a valid proof is refused with
    /// `400 invalid_dpop_proof`.
    case required
    /// The header is ignored: nothing is bound, no `DPoP-Nonce` is sent, discovery does
    /// not list the algorithm.
    case off

    public static let `default` = DPoPMode.optional
}
