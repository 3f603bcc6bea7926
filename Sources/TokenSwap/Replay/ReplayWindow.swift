import HTTPCore
import Sealing
import Transport

/// The retry-safe refresh (CONTRACT §12), a collaborator of every refresh path and device
/// poll: single flight and the replay window, through the state store. Every refresh path and every device poll goes through here after its sealed
/// value opened and passed the checks a repeat must pass too (the seam: checks that refuse
/// a request, such as a proof of possession or a revoked grant, run before `replaying`, so
/// a kept answer is never handed to a request the first one would not have been).
///
/// The store keys the sealed value by its digest (`StateKey`), never the value; the kept
/// answer is sealed (`KeptAnswer`). Swaps never come here: a code is single-use (RFC 6749
/// §4.1.2) and a repeat must fail as the provider says.
final class ReplayWindow: Sendable {
    /// Where claims and kept answers live (memory, or the shared store of §12).
    let state: any StateStore
    /// Kept answers are sealed under the active key (`SealedKind.keptAnswer`).
    let keyRing: KeyRing
    let metrics: ServiceMetrics
    /// `TOKENSWAP_REFRESH_REPLAY_SECONDS`, clamped to 0…600; 0: every request calls the
    /// provider.
    let seconds: Int
    /// The window's length (`seconds`); zero: off.
    var window: Duration { .seconds(seconds) }
    /// How long a refresh's claim holds, and how long a waiter waits.
    let inFlightFor: Duration
    /// `tokenswap_refresh_replays_total`'s series, kept (`ServiceMetrics+Replay`).
    let replayCounters = CounterCache<ServiceMetrics.ReplayKey>()

    init(
        seconds: Int, upstreamTimeoutSeconds: Double, state: any StateStore, keyRing: KeyRing,
        metrics: ServiceMetrics
    ) {
        self.seconds = min(max(0, seconds), 600)
        self.inFlightFor = Self.inFlightFor(upstreamTimeoutSeconds: upstreamTimeoutSeconds)
        self.state = state
        self.keyRing = keyRing
        self.metrics = metrics
    }

    /// How long a claim holds before it frees itself, and how long a waiter waits
    /// (`inFlightFor`): the provider call's own deadline, and a margin for sealing and the
    /// store.
    static func inFlightFor(upstreamTimeoutSeconds: Double) -> Duration {
        .nanoseconds(
            Int64(Deadline.nanoseconds(clamping: upstreamTimeoutSeconds + replayMarginSeconds)))
    }

    static let replayMarginSeconds = 2.0

    /// The key of a sealed refresh token or device code at `provider`; nil when the window
    /// is off (or the digest is unavailable, when the request runs as before). A value
    /// the key ring opened is named by its `SealIdentity` (the parts its tag authenticated:
    /// as unique as its text, and cheaper to digest); any other (a legacy format's, CONTRACT
    /// §9) by its whole text.
    func key(_ sealed: String, opened identity: SealIdentity?, provider: Provider)
        -> StateKey?
    {
        guard seconds > 0 else { return nil }
        if let identity { return StateKey(.refresh, scope: provider.name, seal: identity) }
        return StateKey(.refresh, scope: provider.name, value: sealed)
    }

    /// Answers a refresh-shaped request whose sealed value opened: the kept answer when
    /// there is one, the answer of the call in flight when there is one (whatever it is),
    /// else `call` (the provider exchange and sealing) once, handed the request's claim.
    /// The caller answers a call itself: it hands the call's answer to the claim's `keep`
    /// (kept when it is a `200` or, with `refusals`, a `400 invalid_grant`; else handed to
    /// the waiters) before it answers, so the answer goes back through no closure of the
    /// window's. Every other answer (kept, shared, refused) goes to `completion`, each
    /// replayed one (kept or shared) through `replayed` first (a legacy token gives back
    /// its failure allowance on a replayed success). `prover` is the thumbprint of the DPoP
    /// key that proved the request (nil: none did): an answer is kept with it, and handed
    /// only to a repeat proved by the same key, or unproved when it was (CONTRACT §12); any
    /// other repeat is `invalid_grant` without a provider call. With no key (the window
    /// off), `call` runs at once with no claim.
    /// By callback: the memory store answers inline, so a plain refresh stays a plain call.
    func replaying(
        _ key: StateKey?, provider: Provider, provedBy prover: [UInt8]?, refusals: Bool = true,
        call: @escaping @Sendable (ReplayClaim?) -> Void,
        replayed: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void = { _ in },
        completion: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
    ) {
        guard let key else { return call(nil) }
        let claim = ReplayClaim(
            window: self, key: key, provider: provider, prover: prover, refusals: refusals,
            call: call, replayed: replayed, completion: completion)
        // The callback holds the claim alone (which holds the window): no context of its own.
        state.claim(key, inFlightFor: inFlightFor) { claim.window.claimed($0, claim) }
    }

    /// What `replaying` does once its claim is answered.
    private func claimed(_ found: Result<RefreshClaim, StateStoreError>, _ claim: ReplayClaim) {
        proceed(decide(found, claim, reason: .window), claim) { [self] in
            state.awaitAnswer(claim.key, inFlightFor: inFlightFor, until: .after(inFlightFor)) {
                [self] found in
                proceed(decide(found, claim, reason: .inFlight), claim) {
                    claim.completion(.failure(.upstreamTimeout))
                }
            }
        }
    }

    /// Does what `step` says: calls the provider, answers with what was kept or shared, or,
    /// when the call is still in flight, `inFlight` (wait for it once; after the wait, give
    /// up with a retryable failure).
    private func proceed(_ step: ReplayStep, _ claim: ReplayClaim, inFlight: () -> Void) {
        switch step {
        case .call:
            claim.call(claim)
        case .answer(let result):
            claim.replayed(result)
            claim.completion(result)
        case .wait:
            inFlight()
        }
    }

    /// `replaying` for a task (the device poll, which awaits its provider call): the same
    /// algorithm, awaited, with `call` run as a task of its own when the window calls it,
    /// its answer kept by the claim before it is returned.
    func replaying(
        _ key: StateKey?, provider: Provider, provedBy prover: [UInt8]?, refusals: Bool,
        call: @escaping @Sendable () async throws(GrantError) -> HTTPResponse
    ) async throws(GrantError) -> HTTPResponse {
        guard key != nil else { return try await call() }
        return try await awaiting { completion in
            replaying(
                key, provider: provider, provedBy: prover, refusals: refusals,
                call: { claim in
                    Task {
                        let result: Result<HTTPResponse, GrantError>
                        do throws(GrantError) {
                            result = .success(try await call())
                        } catch {
                            result = .failure(error)
                        }
                        claim?.keep(result)
                        completion(result)
                    }
                }, completion: completion)
        }.get()
    }

    /// What a claim (or a wait) found means for the request.
    private enum ReplayStep {
        case call
        case wait
        case answer(Result<HTTPResponse, GrantError>)
    }

    private func decide(
        _ found: Result<RefreshClaim, StateStoreError>, _ request: ReplayClaim,
        reason: ServiceMetrics.ReplayReason
    ) -> ReplayStep {
        switch found {
        case .failure(let error):
            // Only a store that must not be bypassed reports a failure here (memory never
            // does; the fail-open store falls back itself): the request cannot be made
            // safe to repeat, so it is not made at all (CONTRACT §12, `closed`).
            return .answer(.failure(GrantError(error)))
        case .success(.claimed):
            return .call
        case .success(.inFlight):
            return .wait
        case .success(.waitersFull):
            // CONTRACT §12: a copy holds at most 256 requests waiting on one token; this
            // one is told to come back in a second rather than held.
            return .answer(.failure(.refreshCrowded))
        case .success(.kept(let sealed, let age)):
            // One that no longer opens (its key left the ring) counts as absent.
            guard let kept = openKept(sealed, key: request.key, provider: request.provider)
            else { return .call }
            // Proved by another key than the request that made it, or by one when that
            // request had none, or by none when it had one: the grant is not this
            // client's (CONTRACT §12), whether the token was bound when sent or not.
            guard kept.isFor(prover: request.prover) else {
                return .answer(.failure(.dpopKeyMismatch))
            }
            metrics.refreshReplayed(provider: request.provider.name, reason, in: replayCounters)
            return .answer(kept.replayed(age: age))
        }
    }

    /// Settles `claim`'s key with `result`, sealed: kept for the window when it is a `200`
    /// or (with `refusals`) a `400 invalid_grant`, else handed to the waiters of this call
    /// only (`keepFor` zero), so each concurrent request gets the answer of the one in
    /// flight and the next one calls the provider again.
    fileprivate func keep(_ result: Result<HTTPResponse, GrantError>, for request: ReplayClaim) {
        let (key, provider) = (request.key, request.provider)
        let answer = KeptAnswer(result, provedBy: request.prover)
        // Sealed as bytes (the store holds bytes; nobody outside reads them), the plaintext
        // written where it is encrypted, and that where the store keeps it (the memory
        // store's ring). An answer that does not seal frees the key: a waiter then calls
        // the provider. A settle that fails leaves nothing kept; the store reports its own
        // failures.
        let context = TokenSealer.context(provider, kind: .keptAnswer)
        let keepFor = answer.isKept(refusals: request.refusals) ? window : .zero
        guard
            let byteCount = try? keyRing.sealedByteCount(
                plaintextCount: answer.plaintextByteCount, context: context)
        else { return state.settle(key, answer: nil, keepFor: keepFor) { _ in } }
        state.settle(key, sealing: byteCount, keepFor: keepFor) { [keyRing] sealed in
            (try? keyRing.sealWithoutGrant(into: sealed, context: context) {
                answer.writePlaintext(boundTo: key, into: $0)
            }) != nil
        } completion: { _ in
        }
    }

    /// The answer kept under `key`, sealed as bytes. What an earlier version kept (as
    /// base64url text, or in `KeptAnswer`'s first layout, without the key that proved it)
    /// does not open as one and counts as absent: a repeat during a rolling upgrade calls
    /// the provider, as one after the window does.
    private func openKept(_ sealed: [UInt8], key: StateKey, provider: Provider) -> KeptAnswer? {
        guard sealed.first == Self.sealedKeptAnswerVersion,
            let opened = try? keyRing.open(
                sealedBytes: sealed, context: TokenSealer.context(provider, kind: .keptAnswer))
        else { return nil }
        return KeptAnswer(plaintext: opened.plaintext, boundTo: key)
    }

    /// The first byte of a kept answer sealed as bytes (`SealedTokenLayout` version 1).
    static let sealedKeptAnswerVersion: UInt8 = 1
}

/// A request in the replay window (`ReplayWindow.replaying`): what the window reads of it
/// (the token's key, the provider, the key that proved it, whether refusals are kept) and
/// where its answers go. When the store grants it the claim on its key, the window hands
/// it to the request's `call`, and the request hands the call's answer to `keep` before it
/// answers: the answer goes back as a method call, not through a callback of the window's.
final class ReplayClaim: Sendable {
    let window: ReplayWindow
    let key: StateKey
    let provider: Provider
    /// The thumbprint of the DPoP key that proved the request; nil: none did.
    let prover: [UInt8]?
    /// Whether a `400 invalid_grant` is kept as well as a `200`.
    let refusals: Bool
    /// The provider call, run by the request that holds the claim.
    let call: @Sendable (ReplayClaim) -> Void
    /// Sees each answer the window replays (kept, or the call in flight's) before
    /// `completion`.
    let replayed: @Sendable (Result<HTTPResponse, GrantError>) -> Void
    /// Every answer the window gives (not the call's, which the caller answers itself).
    let completion: @Sendable (Result<HTTPResponse, GrantError>) -> Void

    fileprivate init(
        window: ReplayWindow, key: StateKey, provider: Provider, prover: [UInt8]?,
        refusals: Bool, call: @escaping @Sendable (ReplayClaim) -> Void,
        replayed: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void,
        completion: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
    ) {
        self.window = window
        self.key = key
        self.provider = provider
        self.prover = prover
        self.refusals = refusals
        self.call = call
        self.replayed = replayed
        self.completion = completion
    }

    /// The call's answer, settled under the claim (`ReplayWindow.keep`): called once, by
    /// the request that holds the claim, before it answers.
    func keep(_ result: Result<HTTPResponse, GrantError>) {
        window.keep(result, for: self)
    }
}
