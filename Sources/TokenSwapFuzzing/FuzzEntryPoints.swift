import Sealing
import TokenSwap
import Transport

/// What the libFuzzer targets in `FuzzTesting/` (a separate package that sees only this
/// package's products) need of `TokenSwap` beyond its public API, and nothing else: this
/// target exists for FuzzTesting only, no other target here depends on it, and no part of
/// the service calls it. It reaches `TokenSwap`'s `package` declarations, so nothing of
/// the product is public for fuzzing's sake. The form decoder, `TokenRequestFields`,
/// `JSONValue` and the key ring are public for the service's own targets and are fuzzed
/// through that API; what is here is not public: the JSON parser's entry (CONTRACT §2),
/// the legacy decoders (CONTRACT §9), the device-code envelope with the arithmetic a
/// device poll does with its numbers (CONTRACT §7), and the DPoP proof checker with its
/// URI normalisation (CONTRACT §13).
///
/// Each entry point runs the service's own code, not a copy of it, except
/// `pollDevice(envelope:now:)`, which repeats the steps of `DevicePollGrant.poll`
/// between opening the code and calling the provider (that function needs a provider
/// and a key ring); it must follow that function when it changes.
public enum FuzzEntryPoints {
    // MARK: JSON (CONTRACT §2)

    /// `JSONParser.maxDepth`: the deepest nesting that parses.
    public static let jsonMaxDepth = JSONParser.maxDepth

    /// Why `JSONParser` refused a text: the offset its error names, nil for the errors
    /// that name none (an early end, too deep a nesting).
    public struct JSONRefusal: Error, Sendable, Equatable {
        public let offset: Int?
    }

    /// `JSONParser.parse`.
    public static func parseJSON(_ bytes: [UInt8]) -> Result<JSONValue, JSONRefusal> {
        do {
            return .success(try JSONParser.parse(bytes))
        } catch {
            switch error {
            case .unexpectedEnd, .tooDeep:
                return .failure(JSONRefusal(offset: nil))
            case .unexpectedByte(let offset), .invalidNumber(let offset),
                .invalidString(let offset), .duplicateMember(let offset),
                .trailingContent(let offset):
                return .failure(JSONRefusal(offset: offset))
            }
        }
    }

    // MARK: Legacy tokens (CONTRACT §9)

    /// A provider preset (`ProviderPreset`), for the refresh-token shape it gives what a
    /// legacy decoder opens.
    public struct Preset: Sendable, Equatable {
        let preset: ProviderPreset

        /// Its name in `TOKENSWAP_<NAME>_PRESET`.
        public var name: String { preset.rawValue }

        public static let all = ProviderPreset.allCases.map(Preset.init)
        public static let generic = Preset(preset: .generic)
    }

    /// One legacy decoder under a fixed secret, as `TOKENSWAP_<NAME>_LEGACY` configures it.
    public struct LegacyProbe: Sendable {
        let decoder: LegacyDecoder
        /// Derived once, as `LegacyDecoder` does (Ruby's format costs 2048 MD5 rounds).
        let keyMaterial: [UInt8]

        /// One probe for each `LegacyFormat`, all under `secret`.
        public static func everyFormat(secret: String) -> [LegacyProbe] {
            LegacyFormat.allCases.map { LegacyProbe(format: $0, secret: secret) }
        }

        init(format: LegacyFormat, secret: String) {
            decoder = LegacyDecoder(format: format, secret: Secret(secret))
            keyMaterial = format.keyMaterial(secret: Array(secret.utf8))
        }

        /// What the service does with a token that did not open natively: the transport
        /// repairs, the format's decryption, and the shape check of `preset`'s refresh
        /// tokens. Non-nil only for a plaintext that may go upstream.
        public func open(_ token: String, preset: Preset) -> [UInt8]? {
            decoder.open(token, shape: RefreshTokenShape(preset.preset))
        }

        /// The repairs and the decryption alone, without the shape check: what an
        /// unauthenticated format makes of any input.
        public func decrypt(_ token: String) -> [UInt8]? {
            decoder.format.decrypt(LegacyTokenText.repaired(token), keyMaterial: keyMaterial)
        }
    }

    /// `LegacyTokenText.repaired`: the transport repairs applied before every format.
    public static func repairedLegacyText(_ token: String) -> String {
        LegacyTokenText.repaired(token)
    }

    /// `LegacyTokenText.base64`: standard or URL-safe base64, padded or not.
    public static func legacyBase64(_ text: String) -> [UInt8]? {
        LegacyTokenText.base64(text)
    }

    /// `LegacyTokenText.hex`: an even number of hex digits.
    public static func legacyHex(_ text: String) -> [UInt8]? {
        LegacyTokenText.hex(text)
    }

    // MARK: Device codes (CONTRACT §7)

    /// The fields of a device-code envelope, or nil where `DeviceCodeEnvelope(plaintext:)`
    /// refuses the bytes.
    public static func deviceEnvelope(_ plaintext: [UInt8]) -> (
        deviceCode: String, expiresAt: Int, intervalSeconds: Int
    )? {
        DeviceCodeEnvelope(plaintext: plaintext).map {
            ($0.deviceCode, $0.expiresAt, $0.intervalSeconds)
        }
    }

    /// The plaintext the service seals for these fields (`DeviceCodeEnvelope.plaintext`).
    public static func deviceEnvelopePlaintext(
        deviceCode: String, expiresAt: Int, intervalSeconds: Int
    ) -> [UInt8] {
        Array(
            DeviceCodeEnvelope(
                deviceCode: deviceCode, expiresAt: expiresAt, intervalSeconds: intervalSeconds
            ).plaintext.utf8)
    }

    /// What polls of one device code decided.
    public enum DevicePollTrace: Sendable, Equatable {
        /// The bytes are not an envelope: `invalid_grant` before any arithmetic.
        case notAnEnvelope
        /// Past its expiry: `expired_token` with the sealed interval.
        case expired(interval: Int)
        /// The first poll (goes upstream), an immediate second one (too soon unless the
        /// interval is not positive), and the interval after the provider's `slow_down`.
        case polled(first: Int, second: Int, secondWasTooSoon: Bool, afterProviderSlowDown: Int)
    }

    /// Opens `plaintext` as an envelope and does what `DevicePollGrant.poll` does with
    /// its numbers at wall-clock time `now` (Unix seconds): the remaining lifetime, the
    /// poll schedule's first poll and an immediate second one (RFC 8628 §3.5 `slow_down`,
    /// +5 s), then the provider's own `slow_down`.
    public static func pollDevice(envelope plaintext: [UInt8], now: Int) -> DevicePollTrace {
        guard let envelope = DeviceCodeEnvelope(plaintext: plaintext) else { return .notAnEnvelope }
        let remaining = envelope.expiresAt - now
        guard remaining > 0 else { return .expired(interval: envelope.intervalSeconds) }
        let schedule = DevicePollSchedule(capacity: 4)
        let key = envelope.deviceCode
        let instant = Deadline.now
        func interval(_ decision: DevicePollSchedule.Decision) -> (Int, Bool) {
            switch decision {
            case .poll(let interval): (interval, false)
            case .slowDown(let interval): (interval, true)
            }
        }
        let (first, _) = interval(
            schedule.poll(
                key, initialInterval: envelope.intervalSeconds, lifetime: .seconds(remaining),
                now: instant))
        let (second, tooSoon) = interval(
            schedule.poll(
                key, initialInterval: envelope.intervalSeconds, lifetime: .seconds(remaining),
                now: instant))
        let raised =
            schedule.providerAskedToSlowDown(key)
            ?? DevicePollSchedule.raised(second)
        return .polled(
            first: first, second: second, secondWasTooSoon: tooSoon, afterProviderSlowDown: raised)
    }

    // MARK: DPoP proofs (CONTRACT §13)

    /// The proof checker as a provider configures it, with nonces from a fixed key ring
    /// and a fixed request (`POST https://tokenswap.example/v1/spotify/refresh`).
    public struct DPoPProbe: Sendable {
        let checker: DPoPProofChecker
        let target: DPoPTargetURI
        public let nonce: String

        /// Nil only if OpenSSL cannot derive the nonce key.
        public init?(noncesRequired: Bool, now: Int64) {
            guard
                let ring = try? KeyRing(
                    parsing: "fuzz:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"),
                let nonces = DPoPNonces(keyRing: ring), let nonce = nonces.current(now: now),
                let target = DPoPTargetURI("https://tokenswap.example/v1/spotify/refresh")
            else { return nil }
            checker = DPoPProofChecker(
                maxAgeSeconds: DPoPSettings.defaultMaxAgeSeconds,
                nonces: noncesRequired ? nonces : nil)
            self.target = target
            self.nonce = nonce
        }

        /// The outcome label the checker gives `fields` with method POST at `now`, and
        /// the key's thumbprint when the proof is valid.
        public func check(fields: [String], now: Int64) -> (outcome: String, thumbprint: [UInt8]?) {
            switch checker.check(
                fields: fields, method: "POST", target: target, provider: "fuzz", now: now)
            {
            case .success(let proof): (DPoPOutcome.valid.rawValue, proof.thumbprint)
            case .failure(let failure): (failure.outcome.rawValue, nil)
            }
        }
    }

    /// Whether the two readers of a proof's claims agree on `bytes` (CONTRACT §13): where
    /// `DPoPClaims.readFlat` reads a claims set, `JSONParser` reads the same text to the
    /// same members, so the flat reader accepts nothing the parser refuses.
    public static func dpopClaimReadersAgree(_ bytes: [UInt8]) -> Bool {
        func text(_ claims: DPoPClaims, in bytes: UnsafeBufferPointer<UInt8>) -> [String?] {
            [claims.jti, claims.htm, claims.htu, claims.iat, claims.nonce].map { range in
                range.map {
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self)
                }
            }
        }
        let flat = bytes.withUnsafeBufferPointer { buffer in
            DPoPClaims.readFlat(buffer).map { text($0, in: buffer) }
        }
        guard let flat else { return true }
        guard case .object(let members)? = try? JSONParser.parse(bytes) else { return false }
        var storage: [UInt8] = []
        let parsed = DPoPClaims(members: members, storage: &storage)
        return storage.withUnsafeBufferPointer { text(parsed, in: $0) } == flat
    }

    /// A proof's `htu` normalised (RFC 3986 §6.2.2–6.2.3), or nil where it is refused.
    public static func normalisedDPoPTarget(_ htu: String) -> String? {
        DPoPTargetURI(htu)?.description
    }
}
