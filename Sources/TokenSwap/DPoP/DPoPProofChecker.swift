import Sealing
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The rules of a valid DPoP proof (RFC 9449 §4.3) exactly as CONTRACT §13 states them,
/// as a pure function of the request's `DPoP` fields, method, target URI, provider and the
/// time; the `jti` replay check, which needs the state store, comes afterwards with the
/// key the proof carries (`DPoPProof.proofID`).
///
/// The cheap rules run first and the signature check last but for the store, so a
/// request that fails on its structure, claims or nonce costs no P-256 verification.
package struct DPoPProofChecker: Sendable {
    /// How far `iat` may lie in the future (clock skew between client and service).
    static let maxFutureSeconds: Int64 = 10
    static let jtiCharacterCounts = 16...256
    static let type = "dpop+jwt"
    static let algorithm = "ES256"

    /// `TOKENSWAP_DPOP_MAX_AGE_SECONDS`: how far `iat` may lie in the past.
    let maxAgeSeconds: Int64
    /// `TOKENSWAP_DPOP_NONCE=on`: the nonces to require; nil when `off`.
    let nonces: DPoPNonces?
    /// The keys of headers read before.
    private let keys = KeyCache()

    /// How many headers' keys are kept now.
    var keptHeaderCount: Int { keys.count }

    package init(maxAgeSeconds: Int, nonces: DPoPNonces?) {
        self.maxAgeSeconds = Int64(max(0, maxAgeSeconds))
        self.nonces = nonces
    }

    /// How long a `jti` is remembered: as long as a proof carrying it can pass the `iat`
    /// window, and a second more.
    var replayWindow: Duration { .seconds(maxAgeSeconds + Self.maxFutureSeconds + 1) }

    /// Checks the request's `DPoP` field values (every field of that name, in order, as
    /// their bytes) against the request's `method` and `target` at `now` (Unix seconds);
    /// a proof that passes carries its `jti`'s store key at `provider` (`proofIDKey`).
    func check(
        fieldBytes fields: [ArraySlice<UInt8>], method: String, target: DPoPTargetURI,
        provider: String, now: Int64
    ) -> Result<DPoPProof, DPoPProofFailure> {
        Result { () throws(DPoPProofFailure) in
            try verify(
                fields: fields, method: method, target: target, provider: provider, now: now)
        }
    }

    /// `check` of field values given as text.
    package func check(
        fields: [String], method: String, target: DPoPTargetURI, provider: String, now: Int64
    ) -> Result<DPoPProof, DPoPProofFailure> {
        check(
            fieldBytes: fields.map { Array($0.utf8)[...] }, method: method, target: target,
            provider: provider, now: now)
    }

    private func verify(
        fields: [ArraySlice<UInt8>], method: String, target: DPoPTargetURI, provider: String,
        now: Int64
    ) throws(DPoPProofFailure) -> DPoPProof {
        guard let field = fields.first else { throw .missing }
        // RFC 9449 §4.3 point 1: exactly one field (a list in one field is not a JWS).
        guard fields.count == 1 else { throw .invalid("more than one DPoP field") }
        let jws = try CompactJWS(parsing: field) { encoded throws(DPoPProofFailure) in
            try keys.key(of: encoded)
        }
        let key = jws.header
        let (proofID, issuedAt) = try DPoPClaims.decode(jws.payload) {
            text, claims throws(DPoPProofFailure) in
            try checkClaims(
                claims, in: text, method: method, target: target, provider: provider, now: now)
        }
        let verified = jws.signature.withKeptBytes { signature in
            jws.signingInput.withUnsafeBytes { input in
                key.key.verifies(signature: signature, of: input)
            }
        }
        // Only ES256's 64 bytes are kept (`JWSSignature.keptByteCount`): any other size is none.
        guard let verified else { throw .invalid("signature is not 64 bytes") }
        guard verified else { throw .invalid("signature does not verify") }
        return DPoPProof(header: key, proofID: proofID, issuedAt: issuedAt)
    }

    /// The claims' rules (RFC 9449 §4.3 points 8–11, CONTRACT §13) on `claims`, whose
    /// ranges are into `text`: the `jti`'s store key at `provider` (digested from its bytes
    /// in place, nil if OpenSSL cannot digest) and the `iat` of a proof that passes them.
    private func checkClaims(
        _ claims: DPoPClaims, in text: UnsafeBufferPointer<UInt8>, method: String,
        target: DPoPTargetURI, provider: String, now: Int64
    ) throws(DPoPProofFailure) -> (proofID: StateKey?, issuedAt: Int64) {
        func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: text[range])
        }
        guard let jti = claims.jti.map(bytes),
            Self.jtiCharacterCounts.contains(Self.characterCount(jti))
        else { throw .invalid("jti is not a string of 16 to 256 characters") }
        guard let htm = claims.htm.map(bytes), Self.sameBytes(htm, method) else {
            throw .invalid("htm is not the request method")
        }
        // A client that sends the normal form (most do) matches it as text; the normal
        // form parses back to itself, so this answers as the comparison below would.
        guard let htu = claims.htu.map(bytes),
            target.isSpelled(htu) || DPoPTargetURI(String(decoding: htu, as: UTF8.self)) == target
        else {
            throw .invalid("htu is not the request URI")
        }
        guard let issuedAt = claims.iat.map(bytes).flatMap(Self.seconds) else {
            throw .invalid("iat is not a number")
        }
        guard issuedAt >= now.subtractingSaturated(maxAgeSeconds),
            issuedAt <= now.addingSaturated(Self.maxFutureSeconds)
        else { throw .invalid("iat outside the accepted window") }
        if let nonces {
            guard let nonce = claims.nonce.map(bytes), nonces.accepts(nonce, now: now) else {
                throw .nonceRequired
            }
        }
        return (Self.proofIDKey(jti: jti, provider: provider), issuedAt)
    }

    /// A header's key, checked, and its thumbprint: one object, so handing a kept one
    /// out of the cache counts one reference, not one per part.
    final class HeaderKey: Sendable {
        let key: P256PublicKey
        let thumbprint: [UInt8]

        init(key: P256PublicKey, thumbprint: [UInt8]) {
            self.key = key
            self.thumbprint = thumbprint
        }
    }

    /// The keys of the headers read lately, by the header's exact base64url text. Every
    /// rule of `headerKey` is a function of that text, so a header seen before needs no
    /// decoding, no point check and no thumbprint: an app sends the same header (its one
    /// key) with every proof. Only headers that passed are kept; at `capacity` the cache
    /// starts over, so it holds at most that many keys whatever clients send.
    ///
    /// The header found last is compared first, byte for byte, before the table: a copy
    /// serving one app sees the same header again and again, and that comparison answers
    /// without hashing the text.
    final class KeyCache: Sendable {
        static let capacity = 1024
        private let state = Mutex(State())

        private struct State {
            var keys: [EncodedHeader: HeaderKey] = [:]
            /// The header last found or added, one of `keys`.
            var latest: (header: EncodedHeader, key: HeaderKey)?

            /// The key of `header`: the latest's when the bytes are its, else the table's
            /// (which then becomes the latest).
            mutating func key(of header: EncodedHeader) -> HeaderKey? {
                if latest?.header == header { return latest?.key }
                guard let index = keys.index(forKey: header) else { return nil }
                let found = keys[index]
                latest = (found.key, found.value)
                return found.value
            }
        }

        /// The header's text as the table's key, hashed and compared as one run of bytes.
        private struct EncodedHeader: Hashable {
            let text: ArraySlice<UInt8>

            func hash(into hasher: inout Hasher) {
                text.withUnsafeBytes { hasher.combine(bytes: $0) }
            }

            static func == (lhs: Self, rhs: Self) -> Bool {
                lhs.text.withUnsafeBytes { a in rhs.text.withUnsafeBytes { a.sameBytes(as: $0) } }
            }
        }

        var count: Int { state.withLock { $0.keys.count } }

        func key(of encodedHeader: ArraySlice<UInt8>) throws(DPoPProofFailure) -> HeaderKey {
            if let known = state.withLock({ $0.key(of: EncodedHeader(text: encodedHeader)) }) {
                return known
            }
            let key = try DPoPProofChecker.headerKey(
                JOSEObject.decode(encodedHeader, part: "header"))
            guard let thumbprint = key.thumbprint else {
                throw .invalid("thumbprint unavailable")
            }
            let checked = HeaderKey(key: key, thumbprint: thumbprint)
            // A copy of its own: the slice would keep the whole proof alive.
            let header = EncodedHeader(text: ArraySlice(Array(encodedHeader)))
            state.withLock { state in
                if state.keys.count >= Self.capacity {
                    state.keys.removeAll(keepingCapacity: true)
                }
                state.keys[header] = checked
                state.latest = (header, checked)
            }
            return checked
        }
    }

    /// The header's rules: `typ`, `alg`, no `crit` (no extension is understood, RFC 7515
    /// §4.1.11), and a public EC P-256 `jwk` (RFC 9449 §4.3 points 4–6).
    fileprivate static func headerKey(_ header: [JSONValue.Member]) throws(DPoPProofFailure)
        -> P256PublicKey
    {
        guard header[member: "typ"]?.stringValue == type else {
            throw .invalid("typ is not dpop+jwt")
        }
        guard header[member: "alg"]?.stringValue == algorithm else {
            throw .invalid("alg is not ES256")
        }
        guard header[member: "crit"] == nil else { throw .invalid("crit is not understood") }
        guard case .object(let jwk) = header[member: "jwk"] else {
            throw .invalid("jwk is not an object")
        }
        guard jwk[member: "d"] == nil else { throw .invalid("jwk holds a private key") }
        guard jwk[member: "kty"]?.stringValue == "EC", jwk[member: "crv"]?.stringValue == "P-256"
        else { throw .invalid("jwk is not an EC P-256 key") }
        guard let x = jwk[member: "x"]?.stringValue.flatMap({ Base64URL.decode(Substring($0)) }),
            let y = jwk[member: "y"]?.stringValue.flatMap({ Base64URL.decode(Substring($0)) }),
            let key = P256PublicKey(x: x, y: y)
        else { throw .invalid("jwk is not a point on P-256") }
        return key
    }

    /// Whether `bytes` are `text`'s UTF-8, compared in place.
    static func sameBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String) -> Bool {
        text.withUTF8Bytes {
            UnsafeRawBufferPointer(bytes).sameBytes(as: UnsafeRawBufferPointer($0))
        }
    }

    /// The text's Unicode scalars (its UTF-8, valid: every byte but a continuation byte
    /// starts one), so an ASCII `jti` (a UUID, as most clients send) counts its bytes.
    static func characterCount(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in utf8 where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }

    static func characterCount(_ text: String) -> Int {
        text.withUTF8Bytes { characterCount($0) }
    }

    /// A NumericDate (RFC 7519 §2) from a JSON number's text: whole seconds, a fraction
    /// dropped; nil for an exponent or a value outside Int64.
    static func seconds(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !text.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
        else { return nil }
        var digits = text.prefix { $0 != UInt8(ascii: ".") }[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (scaled, overflow) = value.multipliedReportingOverflow(by: 10)
            // A negative value gathers below zero, so Int64.min is read too.
            let (next, carry) =
                negative
                ? scaled.subtractingReportingOverflow(digit) : scaled.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = next
        }
        return value
    }
}

extension Int64 {
    fileprivate func addingSaturated(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    fileprivate func subtractingSaturated(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? .min : difference
    }
}

/// A proof that passed every rule of RFC 9449 §4.3 but the replay check: the key that
/// signed it and the store key of the `jti` that the replay check records (CONTRACT §13).
/// No textual form shows the key; the `jti` is kept only as its digest.
///
/// Handed from the checker through the store's callback to the grant, so it is one
/// reference (the header's key, as the checker keeps it) and plain data.
package struct DPoPProof: Sendable, Equatable, CustomStringConvertible {
    let header: DPoPProofChecker.HeaderKey
    /// `DPoPProofChecker.proofIDKey` of the `jti` at the provider it was checked for; nil
    /// only when OpenSSL could not digest (the gate answers as for a failed store).
    let proofID: StateKey?
    /// `iat`, Unix seconds.
    let issuedAt: Int64

    var key: P256PublicKey { header.key }
    /// The key's RFC 7638 SHA-256 thumbprint, 32 bytes: what a bound token carries.
    package var thumbprint: [UInt8] { header.thumbprint }

    package var description: String { "DPoPProof(<redacted>)" }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        // The thumbprint follows from the key.
        lhs.key == rhs.key && lhs.proofID == rhs.proofID && lhs.issuedAt == rhs.issuedAt
    }
}
