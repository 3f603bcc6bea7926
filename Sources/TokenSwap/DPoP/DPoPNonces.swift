import Sealing
import Synchronization

/// Stateless DPoP nonces (RFC 9449 §8, CONTRACT §13): a nonce is the HMAC-SHA-256 of a
/// five-minute time step under a key derived from the key ring (HKDF, `KeyRing.
/// derivedKeys`), so every copy with the same ring issues the same nonce in the same
/// step and accepts another copy's without shared state.
///
/// A nonce of step `s` is accepted while the current step is `s` or `s + 1`: from its
/// issue for at least 5 and at most 10 minutes. It is issued with the active key and
/// accepted with any key of the ring, so a ring rotated on one copy before another needs
/// no coordination.
package struct DPoPNonces: Sendable {
    static let stepSeconds: Int64 = 300
    /// What the HKDF `info` names: no other derived key equals this one.
    static let derivationInfo = "tokenswap DPoP nonce v1"
    /// Bytes of the MAC kept: 128 bits cannot be guessed within a step.
    static let macByteCount = 16

    /// The derived keys, the active key's first.
    private let keys: [[UInt8]]
    /// The nonces of the step last asked about: they change once a step, so a proof's
    /// check compares against these instead of computing four HMACs per key.
    private let cache = Cache()

    /// Nil if OpenSSL fails to derive.
    package init?(keyRing: KeyRing) {
        guard let keys = keyRing.derivedKeys(info: Self.derivationInfo), !keys.isEmpty else {
            return nil
        }
        self.keys = keys
    }

    /// The nonce to send at `now` (Unix seconds) in `DPoP-Nonce`; nil if OpenSSL fails.
    package func current(now: Int64) -> String? {
        nonces(at: Self.step(now))?.current
    }

    /// Whether `nonce` was issued by a copy with a key of this ring in the current step
    /// or the one before.
    ///
    /// Compared as text: a nonce is the canonical unpadded base64url of its MAC, and
    /// `Base64URL` decodes nothing else, so the texts are equal exactly when the MACs are,
    /// and the presented nonce needs no decoding.
    func accepts(_ nonce: String, now: Int64) -> Bool {
        nonce.withUTF8Bytes { accepts($0, now: now) }
    }

    /// `accepts` of a nonce given as its bytes (a proof's claim, read in place).
    func accepts(_ presented: UnsafeBufferPointer<UInt8>, now: Int64) -> Bool {
        guard presented.count == Self.textByteCount, let nonces = nonces(at: Self.step(now))
        else { return false }
        var accepted = false
        for expected in nonces.accepted {
            accepted = Self.constantTimeEqual(expected, presented) || accepted
        }
        return accepted
    }

    /// A nonce's length as text.
    private static let textByteCount = Base64URL.encodedLength(byteCount: macByteCount)

    /// The nonces of one step: the one to send (the active key's) and the text of every
    /// one accepted (each key's, of this step and the one before). One object, so reading
    /// the cached step counts one reference.
    private final class StepNonces: Sendable {
        let step: UInt64
        let current: String
        let accepted: [[UInt8]]

        init(step: UInt64, current: String, accepted: [[UInt8]]) {
            self.step = step
            self.current = current
            self.accepted = accepted
        }
    }

    private final class Cache: Sendable {
        let latest = Mutex<StepNonces?>(nil)
    }

    private func nonces(at step: UInt64) -> StepNonces? {
        if let cached = cache.latest.withLock({ $0 }), cached.step == step { return cached }
        var accepted: [[UInt8]] = []
        for key in keys {
            for candidate in step > 0 ? [step, step - 1] : [step] {
                guard let mac = mac(key: key, step: candidate) else { return nil }
                accepted.append(Array(Base64URL.encode(mac).utf8))
            }
        }
        guard let current = mac(key: keys[0], step: step).map(Base64URL.encode) else {
            return nil
        }
        let nonces = StepNonces(step: step, current: current, accepted: accepted)
        cache.latest.withLock { $0 = nonces }
        return nonces
    }

    /// Before 1970 (a broken clock) counts as step 0, never negative.
    static func step(_ now: Int64) -> UInt64 {
        UInt64(max(0, now) / stepSeconds)
    }

    private func mac(key: [UInt8], step: UInt64) -> [UInt8]? {
        let message = (0..<8).map { UInt8(truncatingIfNeeded: step >> UInt64(56 - 8 * $0)) }
        return SHA256.hmac(key: key, message: message).map { Array($0.prefix(Self.macByteCount)) }
    }

    private static func constantTimeEqual(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.withUnsafeBufferPointer { a in
            guard a.count == b.count else { return false }
            var difference: UInt8 = 0
            for index in 0..<a.count { difference |= a[index] ^ b[index] }
            return difference == 0
        }
    }
}
