import HTTPCore
import Sealing
import Transport

/// The retry-safe refresh (CONTRACT §12): single flight and the replay window, through the
/// state store. Every refresh path and every device poll goes through here after its sealed
/// value opened and passed the checks a repeat must pass too (the seam: checks that refuse
/// a request, such as a proof of possession or a revoked grant, run before `replaying`, so
/// a kept answer is never handed to a request the first one would not have been).
///
/// The store keys the sealed value by its digest (`StateKey`), never the value; the kept
/// answer is sealed (`KeptAnswer`). Swaps never come here: a code is single-use (RFC 6749
/// §4.1.2) and a repeat must fail as the provider says.
extension GrantEndpoints {
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
    func replayKey(_ sealed: String, opened identity: SealIdentity?, provider: Provider)
        -> StateKey?
    {
        guard refreshReplaySeconds > 0 else { return nil }
        if let identity { return StateKey(.refresh, scope: provider.name, seal: identity) }
        return StateKey(.refresh, scope: provider.name, value: sealed)
    }

    /// Answers a refresh-shaped request whose sealed value opened: the kept answer when
    /// there is one, the answer of the call in flight when there is one (whatever it is),
    /// else `call` (the provider exchange and sealing) once, its answer kept when it is a
    /// `200` or, with `refusals`, a `400 invalid_grant`. `replayed` sees each replayed answer before `completion`
    /// (a legacy token gives back its failure allowance on a replayed success).
    /// By callback: the memory store answers inline, so a plain refresh stays a plain call.
    func replaying(
        _ key: StateKey?, provider: Provider, refusals: Bool = true,
        call:
            @escaping @Sendable (
                @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
            ) -> Void,
        replayed: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void = { _ in },
        completion: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
    ) {
        guard let key else { return call(completion) }
        if let claim = state.claimAtOnce(key, inFlightFor: inFlightFor) {
            return claimed(
                .success(claim), key: key, provider: provider, refusals: refusals, call: call,
                replayed: replayed, completion: completion)
        }
        state.claim(key, inFlightFor: inFlightFor) { [self] claim in
            claimed(
                claim, key: key, provider: provider, refusals: refusals, call: call,
                replayed: replayed, completion: completion)
        }
    }

    /// What `replaying` does once its claim is answered.
    private func claimed(
        _ claim: Result<RefreshClaim, StateStoreError>, key: StateKey, provider: Provider,
        refusals: Bool,
        call:
            @escaping @Sendable (
                @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
            ) -> Void,
        replayed: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void,
        completion: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
    ) {
        proceed(
            decide(claim, key: key, provider: provider, reason: .window), key: key,
            provider: provider, refusals: refusals, call: call, replayed: replayed,
            completion: completion
        ) { [self] in
            state.awaitAnswer(
                key, inFlightFor: inFlightFor, until: .after(inFlightFor)
            ) { [self] claim in
                proceed(
                    decide(claim, key: key, provider: provider, reason: .inFlight), key: key,
                    provider: provider, refusals: refusals, call: call, replayed: replayed,
                    completion: completion
                ) { completion(.failure(.upstreamTimeout)) }
            }
        }
    }

    /// Does what `step` says: calls the provider, answers with what was kept or shared, or,
    /// when the call is still in flight, `inFlight` (wait for it once; after the wait, give
    /// up with a retryable failure).
    private func proceed(
        _ step: ReplayStep, key: StateKey, provider: Provider, refusals: Bool,
        call:
            @escaping @Sendable (
                @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
            ) -> Void,
        replayed: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void,
        completion: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void,
        inFlight: () -> Void
    ) {
        switch step {
        case .call:
            calling(call, key: key, provider: provider, refusals: refusals, completion)
        case .answer(let result):
            replayed(result)
            completion(result)
        case .wait:
            inFlight()
        }
    }

    /// The provider call of a request that holds the claim on `key`, its answer kept (or
    /// handed to the waiters) before `completion` sees it.
    private func calling(
        _ call:
            @escaping @Sendable (
                @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
            ) -> Void,
        key: StateKey, provider: Provider, refusals: Bool,
        _ completion: @escaping @Sendable (Result<HTTPResponse, GrantError>) -> Void
    ) {
        call { [self] result in
            keep(result, under: key, provider: provider, refusals: refusals)
            completion(result)
        }
    }

    /// `replaying` for a task (the device poll, which awaits its provider call).
    func replaying(
        _ key: StateKey?, provider: Provider, refusals: Bool,
        call: () async throws(GrantError) -> HTTPResponse
    ) async throws(GrantError) -> HTTPResponse {
        guard let key else { return try await call() }
        var step = decide(
            await storeAnswer { state.claim(key, inFlightFor: inFlightFor, completion: $0) },
            key: key, provider: provider, reason: .window)
        if case .wait = step {
            let deadline = Deadline.after(inFlightFor)
            step = decide(
                await storeAnswer {
                    state.awaitAnswer(
                        key, inFlightFor: inFlightFor, until: deadline, completion: $0)
                }, key: key, provider: provider, reason: .inFlight)
        }
        switch step {
        case .answer(let result):
            return try result.get()
        case .wait:
            throw .upstreamTimeout
        case .call:
            let result: Result<HTTPResponse, GrantError>
            do throws(GrantError) {
                result = .success(try await call())
            } catch {
                result = .failure(error)
            }
            keep(result, under: key, provider: provider, refusals: refusals)
            return try result.get()
        }
    }

    /// What a claim (or a wait) found means for the request.
    private enum ReplayStep {
        case call
        case wait
        case answer(Result<HTTPResponse, GrantError>)
    }

    private func decide(
        _ claim: Result<RefreshClaim, StateStoreError>, key: StateKey, provider: Provider,
        reason: ServiceMetrics.ReplayReason
    ) -> ReplayStep {
        switch claim {
        case .failure(let error):
            // Only a store that must not be bypassed reports a failure here (memory never
            // does; the fail-open store falls back itself): the request cannot be made
            // safe to repeat, so it is not made at all (CONTRACT §12, `closed`).
            return .answer(.failure(GrantError(error)))
        case .success(.claimed):
            return .call
        case .success(.inFlight):
            return .wait
        case .success(.kept(let sealed, let age)):
            // One that no longer opens (its key left the ring) counts as absent.
            guard let kept = openKept(sealed, key: key, provider: provider) else { return .call }
            metrics.refreshReplayed(provider: provider.name, reason, in: replayCounters)
            return .answer(kept.replayed(age: age))
        }
    }

    /// Settles the claim on `key` with `result`, sealed: kept for the window when it is a
    /// `200` or (with `refusals`) a `400 invalid_grant`, else handed to the waiters of this
    /// call only (`keepFor` zero), so each concurrent request gets the answer of the one in
    /// flight and the next one calls the provider again.
    private func keep(
        _ result: Result<HTTPResponse, GrantError>, under key: StateKey, provider: Provider,
        refusals: Bool
    ) {
        let answer = KeptAnswer(result)
        // Sealed as bytes (the store holds bytes; nobody outside reads them), the plaintext
        // written where it is encrypted. An answer that does not seal frees the key: a
        // waiter then calls the provider.
        let sealed = try? keyRing.sealWithoutGrant(
            byteCount: answer.plaintextByteCount,
            context: Self.context(provider, kind: .keptAnswer)
        ) { answer.writePlaintext(boundTo: key, into: $0) }
        // A settle that fails leaves nothing kept; the store reports its own failures.
        state.settle(
            key, answer: sealed, keepFor: answer.isKept(refusals: refusals) ? replayWindow : .zero
        ) { _ in }
    }

    /// The answer kept under `key`: sealed bytes, or the base64url text an earlier version
    /// kept (a shared store may hold one from a copy not yet upgraded). Sealed bytes begin
    /// with the layout version, `0x01`, which no base64url character is.
    private func openKept(_ sealed: [UInt8], key: StateKey, provider: Provider) -> KeptAnswer? {
        let context = Self.context(provider, kind: .keptAnswer)
        let opened: OpenedToken?
        if sealed.first == Self.sealedKeptAnswerVersion {
            opened = try? keyRing.open(sealedBytes: sealed, context: context)
        } else if let text = String(validating: sealed, as: UTF8.self) {
            opened = try? keyRing.open(text, context: context)
        } else {
            opened = nil
        }
        guard let opened else { return nil }
        return KeptAnswer(plaintext: opened.plaintext, boundTo: key)
    }

    /// The first byte of a kept answer sealed as bytes (`SealedTokenLayout` version 1).
    static let sealedKeptAnswerVersion: UInt8 = 1

    private func storeAnswer(
        _ operation: (@escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void) -> Void
    ) async -> Result<RefreshClaim, StateStoreError> {
        await withCheckedContinuation { continuation in
            operation { continuation.resume(returning: $0) }
        }
    }
}

/// A refresh's answer as the state store holds it (CONTRACT §12): kept for the replay
/// window when it is a `200` or a `400 invalid_grant`, or else handed only to the requests
/// waiting for the call in flight (single flight: each gets the answer of the one in
/// flight, whatever it is). Sealed under the active key with its own kind
/// (`SealedKind.keptAnswer`), and bound to the request that made it: the digest of its
/// `StateKey` is the first part of the plaintext, so an answer for one token never opens
/// as the answer for another, even if a store mixed up its values.
///
/// Plaintext layout: version (1) | key digest (32) | status (2, big-endian) |
/// `Retry-After` seconds (4, big-endian, 0: none) | body.
struct KeptAnswer: Sendable, Equatable {
    let status: Int
    let retryAfterSeconds: Int?
    let body: [UInt8]

    static let version: UInt8 = 1
    private static let digestByteCount = 32
    private static let headerByteCount = 1 + digestByteCount + 2 + 4

    /// The answer a request got: its status, body and `Retry-After`.
    init(_ result: Result<HTTPResponse, GrantError>) {
        let response: HTTPResponse
        switch result {
        case .success(let answer): response = answer
        case .failure(let error): response = error.response
        }
        // A `200` replays with the token headers alone (`replayed`): no header to look up.
        let status = response.status.code
        self.init(
            status: status,
            retryAfterSeconds: status == 200
                ? nil : response.headers["Retry-After"].flatMap { Int($0) },
            body: response.body)
    }

    init(status: Int, retryAfterSeconds: Int? = nil, body: [UInt8]) {
        self.status = status
        // `GrantError` clamps it to an hour; four bytes hold it either way.
        self.retryAfterSeconds = retryAfterSeconds.map { min(max($0, 1), 86_400) }
        self.body = body
    }

    /// Whether the window keeps it: a `200`, or a `400` whose `error` is `invalid_grant`
    /// when `refusals` (a refresh; a device poll keeps its tokens only). A 429, a 5xx, a
    /// 502/504 and any other answer are not kept: the next request calls the provider.
    func isKept(refusals: Bool) -> Bool {
        if status == 200 { return true }
        guard refusals, status == 400 else { return false }
        return (try? JSONParser.parse(body))?["error"]?.stringValue == "invalid_grant"
    }

    /// The plaintext to seal, bound to `key`.
    func plaintext(boundTo key: StateKey) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: plaintextByteCount) { buffer, initialized in
            writePlaintext(boundTo: key, into: UnsafeMutableRawBufferPointer(buffer))
            initialized = plaintextByteCount
        }
    }

    /// The plaintext's length.
    var plaintextByteCount: Int { Self.headerByteCount + body.count }

    /// Writes the plaintext, bound to `key`, into the first `plaintextByteCount` bytes of
    /// `buffer`: where the key ring seals it in place (`KeyRing.sealWithoutGrant`).
    func writePlaintext(boundTo key: StateKey, into buffer: UnsafeMutableRawBufferPointer) {
        precondition(buffer.count >= plaintextByteCount)
        buffer[0] = Self.version
        key.writeDigest(into: UnsafeMutableRawBufferPointer(rebasing: buffer[1...]))
        let status = UInt16(clamping: status)
        buffer.storeBytes(
            of: status.bigEndian, toByteOffset: 1 + Self.digestByteCount, as: UInt16.self)
        let retryAfter = UInt32(clamping: retryAfterSeconds ?? 0)
        buffer.storeBytes(
            of: retryAfter.bigEndian, toByteOffset: 3 + Self.digestByteCount, as: UInt32.self)
        UnsafeMutableRawBufferPointer(rebasing: buffer[Self.headerByteCount..<plaintextByteCount])
            .copyBytes(from: body)
    }

    /// The answer in `plaintext`, or nil when it is not one this version wrote or was kept
    /// for another request than `key`'s.
    init?(plaintext: [UInt8], boundTo key: StateKey) {
        guard plaintext.count >= Self.headerByteCount, plaintext[0] == Self.version,
            plaintext[1...Self.digestByteCount].elementsEqual(key.digest)
        else { return nil }
        var offset = Self.digestByteCount + 1
        let status = Int(plaintext[offset]) << 8 | Int(plaintext[offset + 1])
        offset += 2
        var retryAfter = 0
        for byte in plaintext[offset..<(offset + 4)] { retryAfter = retryAfter << 8 | Int(byte) }
        guard (200...599).contains(status) else { return nil }
        self.init(
            status: status, retryAfterSeconds: retryAfter == 0 ? nil : retryAfter,
            body: Array(plaintext[Self.headerByteCount...]))
    }

    /// The answer as replayed `age` after the provider gave it: a `200` with `expires_in`
    /// counted down by the whole seconds since (clamped at 0), every other member the same;
    /// any other answer as it was, status, body and `Retry-After`.
    func replayed(age: Duration) -> Result<HTTPResponse, GrantError> {
        guard status == 200 else { return .failure(failure) }
        return .success(
            HTTPResponse(
                status: .ok, headers: TokenResponseHeaders.base,
                body: Self.countedDown(body, by: age.components.seconds)))
    }

    /// The failure this answer was, as the `GrantError` that renders it again byte for
    /// byte: the service's own errors by their code (so the request's log line names
    /// them), anything else (a provider's body, a device poll's) verbatim.
    private var failure: GrantError {
        let code = (try? JSONParser.parse(body))?["error"]?.stringValue
        let reason = "the answer of the call in flight"
        let own: GrantError? =
            switch (status, code) {
            case (502, "upstream_error"): .upstreamError(reason: reason)
            case (502, "upstream_unreachable"): .upstreamUnreachable(reason: reason)
            case (504, "upstream_timeout"): .upstreamTimeout
            case (503, "temporarily_unavailable"): .temporarilyUnavailable(reason: reason)
            case (429, _): .providerThrottled(retryAfterSeconds: retryAfterSeconds, body: body)
            default: nil
            }
        if let own, own.response.body == body || status == 429 { return own }
        return .providerRejected(
            status: HTTPStatus(code: status, reasonPhrase: Self.reasonPhrase(status)), body: body)
    }

    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        default: "Error"
        }
    }

    /// `body` with its integer `expires_in` lowered by `seconds` (never below 0); unchanged
    /// when it has none (`ProviderTokenResponse` wrote it as a plain integer).
    static func countedDown(_ body: [UInt8], by seconds: Int64) -> [UInt8] {
        guard seconds > 0, case .object(var members)? = try? JSONParser.parse(body),
            let index = members.firstIndex(where: { $0.name == "expires_in" }),
            case .number(let text) = members[index].value, let expiresIn = Int64(text)
        else { return body }
        // Both are bounded (a provider's integer, a window of minutes), but saturate anyway.
        let (left, overflow) = expiresIn.subtractingReportingOverflow(seconds)
        members[index].value = .number(String(overflow ? 0 : max(0, left)))
        return JSONValue.object(members).serialized
    }
}
