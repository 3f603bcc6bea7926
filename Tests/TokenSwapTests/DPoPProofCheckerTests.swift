import Crypto
import Sealing
import Synchronization
import TestSupport
import Testing
import Transport

@testable import TokenSwap

/// Every rule of a valid DPoP proof (RFC 9449 §4.3, CONTRACT §13) with its bad case, on
/// proofs signed by swift-crypto. Time is a fixed Unix second, never the wall clock.
@Suite(.resourceClass(.compute)) struct DPoPProofCheckerTests {
    static let now: Int64 = 1_767_225_600
    let maker = DPoPProofMaker()
    let target = DPoPTargetURI(DPoPProofMaker.htu)!
    let nonces: DPoPNonces
    let checker: DPoPProofChecker
    let nonceChecker: DPoPProofChecker

    init() throws {
        let ring = try KeyRing(parsing: "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
        nonces = try #require(DPoPNonces(keyRing: ring))
        checker = DPoPProofChecker(maxAgeSeconds: 60, nonces: nil)
        nonceChecker = DPoPProofChecker(maxAgeSeconds: 60, nonces: nonces)
    }

    private func check(
        _ proof: String, method: String = "POST", now: Int64 = Self.now,
        with checker: DPoPProofChecker? = nil, provider: String = "spotify"
    ) -> Result<DPoPProof, DPoPProofFailure> {
        (checker ?? self.checker).check(
            fields: [proof], method: method, target: target, provider: provider, now: now)
    }

    /// The store key a proof with this `jti` records at `provider`.
    private static func proofID(_ jti: String, provider: String = "spotify") -> StateKey? {
        StateKey(.proofID, scope: provider, value: jti)
    }

    private func isInvalid(_ result: Result<DPoPProof, DPoPProofFailure>) -> Bool {
        if case .failure(.invalid) = result { return true }
        return false
    }

    @Test func aValidProofPassesWithItsKeysThumbprint() throws {
        let proof = try check(maker.proof()).get()
        #expect(proof.thumbprint == maker.thumbprint)
        #expect(proof.proofID == Self.proofID("e1j3V_bKic8-LAEB"))
        #expect(proof.proofID != Self.proofID("e1j3V_bKic8-LAEB", provider: "linkedin"))
        #expect(proof.issuedAt == Self.now)
        #expect(String(describing: proof) == "DPoPProof(<redacted>)")
    }

    /// A header read once is kept by its exact text (`DPoPProofChecker.KeyCache`): the
    /// same key's next proof passes from it, a proof that names that key but is signed by
    /// another still fails, and the cache never holds more keys than its capacity.
    @Test func aKeptHeaderProvesNothingOnItsOwnAndTheCacheIsBounded() throws {
        let first = try check(maker.proof()).get()
        let again = try check(
            maker.proof(claims: DPoPProofMaker.claims(jti: "a-second-proof-id"))
        ).get()
        #expect(again.thumbprint == first.thumbprint)
        let input =
            Base64URL.encode(Array(maker.header().utf8)) + "."
            + Base64URL.encode(Array(DPoPProofMaker.claims().utf8))
        let signedByAnother = input + "." + Base64URL.encode(DPoPProofMaker().sign(input))
        #expect(check(signedByAnother) == .failure(.invalid("signature does not verify")))
        #expect(checker.keptHeaderCount == 1)

        for _ in 0..<DPoPProofChecker.KeyCache.capacity {
            _ = try check(DPoPProofMaker().proof()).get()
        }
        #expect(checker.keptHeaderCount <= DPoPProofChecker.KeyCache.capacity)
        #expect(checker.keptHeaderCount >= 1)
        // A header refused is not kept.
        let before = checker.keptHeaderCount
        #expect(isInvalid(check(maker.proof(header: maker.header(alg: "HS256")))))
        #expect(checker.keptHeaderCount == before)
    }

    /// The header found last answers before the table (`KeyCache`), compared by every
    /// byte: two keys' headers of the same length in turn each get their own key, and a
    /// header one byte away from the latest, or one byte shorter or longer, is never
    /// taken for it.
    @Test func theLatestHeaderAnswersOnlyForItsExactBytes() throws {
        let cache = DPoPProofChecker.KeyCache()
        let other = DPoPProofMaker()
        func encoded(_ header: String) -> ArraySlice<UInt8> {
            Array(Base64URL.encode(Array(header.utf8)).utf8)[...]
        }
        let mine = encoded(maker.header())
        let theirs = encoded(other.header())
        #expect(mine.count == theirs.count)
        for _ in 0..<3 {
            #expect(try cache.key(of: mine).thumbprint == maker.thumbprint)
            #expect(try cache.key(of: mine).thumbprint == maker.thumbprint)
            #expect(try cache.key(of: theirs).thumbprint == other.thumbprint)
        }
        #expect(cache.count == 2)
        for index in mine.indices {
            _ = try cache.key(of: mine)
            var changed = mine
            changed[index] =
                mine[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            if let key = try? cache.key(of: changed) {
                #expect(key.thumbprint != maker.thumbprint)
            }
        }
        _ = try cache.key(of: mine)
        #expect(throws: DPoPProofFailure.self) { try cache.key(of: mine.dropLast()) }
        #expect(throws: DPoPProofFailure.self) { try cache.key(of: mine + [UInt8(ascii: "A")]) }
        #expect(try cache.key(of: theirs).thumbprint == other.thumbprint)
    }

    @Test func fieldCountMatters() {
        let proof = maker.proof()
        #expect(
            checker.check(
                fields: [], method: "POST", target: target, provider: "spotify", now: Self.now)
                == .failure(.missing))
        #expect(
            isInvalid(
                checker.check(
                    fields: [proof, proof], method: "POST", target: target, provider: "spotify",
                    now: Self.now)))
        #expect(isInvalid(check(proof + "," + proof)))
    }

    @Test(arguments: ["jwt", "DPoP+JWT", "dpop+jwt ", ""])
    func wrongTypIsRefused(_ typ: String) {
        #expect(isInvalid(check(maker.proof(header: maker.header(typ: typ)))))
        let noTyp = #"{"alg":"ES256","jwk":\#(maker.jwk())}"#
        #expect(isInvalid(check(maker.proof(header: noTyp))))
    }

    /// `none`, MACs, RSA and other algorithms, each with a signature of its own shape.
    @Test func onlyES256IsAccepted() {
        let none = maker.proof(header: maker.header(alg: "none"), signature: [])
        #expect(isInvalid(check(none)))
        #expect(isInvalid(check(String(none.dropLast()))))
        let input =
            Base64URL.encode(Array(maker.header(alg: "HS256").utf8)) + "."
            + Base64URL.encode(Array(DPoPProofMaker.claims().utf8))
        let mac = HMAC<Crypto.SHA256>.authenticationCode(
            for: Array(input.utf8), using: SymmetricKey(data: maker.x))
        #expect(isInvalid(check(input + "." + Base64URL.encode(Array(mac)))))
        for alg in ["RS256", "PS256", "ES384", "ES512", "EdDSA", "es256"] {
            let bytes = alg.hasPrefix("RS") || alg.hasPrefix("PS") ? 256 : 64
            let proof = maker.proof(
                header: maker.header(alg: alg), signature: [UInt8](repeating: 7, count: bytes))
            #expect(isInvalid(check(proof)))
            // Even with a genuine ES256 signature, the header must say ES256.
            #expect(isInvalid(check(maker.proof(header: maker.header(alg: alg)))))
        }
    }

    /// The signature is kept in place only at ES256's 64 bytes (`JWSSignature`): every
    /// other size up to the bound is refused as not 64 bytes, a 64-byte one by another
    /// key does not verify, and a text that is not canonical base64url is refused as such.
    @Test func theSignatureIsSixtyFourCanonicalBytes() {
        for count in [1, 32, 48, 63, 65, 66, 96, 128, 256, 512] {
            let proof = maker.proof(signature: [UInt8](repeating: 7, count: count))
            #expect(check(proof) == .failure(.invalid("signature is not 64 bytes")))
        }
        let wrong = maker.proof(signature: [UInt8](repeating: 7, count: 64))
        #expect(check(wrong) == .failure(.invalid("signature does not verify")))
        let genuine = maker.proof()
        #expect((try? check(genuine).get()) != nil)
        // The last character of 64 bytes carries 2 bits; `B` sets an unused one.
        let loose = String(genuine.dropLast()) + "B"
        #expect(check(loose) == .failure(.invalid("signature is not base64url")))
        for bad in ["=", "+", "/", " "] {
            let spoiled = String(genuine.dropLast(2)) + bad + String(genuine.suffix(1))
            #expect(check(spoiled) == .failure(.invalid("signature is not base64url")))
        }
        #expect(
            check(String(genuine.dropLast(2))) == .failure(.invalid("signature is not 64 bytes")))
    }

    @Test func jwkMustBeAPublicP256Key() throws {
        let d = Base64URL.encode(Array(maker.key.rawRepresentation))
        #expect(
            isInvalid(
                check(maker.proof(header: maker.header(jwk: maker.jwk(extra: #","d":"\#(d)""#))))))
        #expect(isInvalid(check(maker.proof(header: maker.header(jwk: maker.jwk(crv: "P-384"))))))
        #expect(
            isInvalid(check(maker.proof(header: maker.header(jwk: maker.jwk(crv: "secp256k1"))))))
        #expect(isInvalid(check(maker.proof(header: maker.header(jwk: maker.jwk(kty: "RSA"))))))
        #expect(isInvalid(check(maker.proof(header: maker.header(jwk: maker.jwk(kty: "OKP"))))))
        var y = maker.y
        y[31] ^= 1
        let offCurve = maker.jwk(y: Base64URL.encode(y))
        #expect(isInvalid(check(maker.proof(header: maker.header(jwk: offCurve)))))
        let short = maker.jwk(x: Base64URL.encode(Array(maker.x.dropFirst())))
        #expect(isInvalid(check(maker.proof(header: maker.header(jwk: short)))))
        let padded = maker.jwk(x: Base64URL.encode(maker.x) + "=")
        #expect(isInvalid(check(maker.proof(header: maker.header(jwk: padded)))))
        #expect(isInvalid(check(maker.proof(header: maker.header(jwk: #""key""#)))))
        let noJWK = #"{"typ":"dpop+jwt","alg":"ES256"}"#
        #expect(isInvalid(check(maker.proof(header: noJWK))))
    }

    @Test func critIsRefused() {
        let crit = maker.header(extra: #","crit":["exp"],"exp":1"#)
        #expect(isInvalid(check(maker.proof(header: crit))))
        #expect(isInvalid(check(maker.proof(header: maker.header(extra: #","crit":[]"#)))))
    }

    @Test func signatureMustBe64BytesByTheJWKsKey() {
        let good = maker.proof()
        let parts = good.split(separator: ".").map(String.init)
        let signature = Base64URL.decode(Substring(parts[2]))!
        let input = parts[0] + "." + parts[1]
        #expect(isInvalid(check(input + "." + Base64URL.encode(Array(signature.prefix(63))))))
        #expect(isInvalid(check(input + "." + Base64URL.encode(signature + [0]))))
        #expect(isInvalid(check(input + "." + Base64URL.encode(maker.derSignature(input)))))
        let other = DPoPProofMaker()
        #expect(isInvalid(check(input + "." + Base64URL.encode(other.sign(input)))))
        // Another key's proof that names this key.
        #expect(isInvalid(check(maker.proof(signature: other.sign(input)))))
        var flipped = signature
        flipped[10] ^= 0x40
        #expect(isInvalid(check(input + "." + Base64URL.encode(flipped))))
    }

    @Test func jtiIsAStringOf16To256Characters() {
        for length in [16, 256] {
            #expect(
                (try? check(
                    maker.proof(
                        claims: DPoPProofMaker.claims(jti: String(repeating: "a", count: length)))
                ).get()) != nil)
        }
        for length in [0, 15, 257] {
            #expect(
                isInvalid(
                    check(
                        maker.proof(
                            claims: DPoPProofMaker.claims(
                                jti: String(repeating: "a", count: length))))))
        }
        // Counted in characters (Unicode scalars), not bytes, whether or not the text is
        // ASCII: 16 two-byte characters pass, 15 (30 bytes) do not.
        for (jti, valid) in [
            (String(repeating: "é", count: 16), true), (String(repeating: "é", count: 15), false),
            (String(repeating: "😀", count: 64), true), (String(repeating: "é", count: 257), false),
            (String(repeating: "a", count: 15) + "é", true),
        ] {
            let result = check(maker.proof(claims: DPoPProofMaker.claims(jti: jti)))
            #expect(valid ? (try? result.get()) != nil : isInvalid(result))
        }
        #expect(DPoPProofChecker.characterCount("e\u{301}") == 2)
        #expect(DPoPProofChecker.characterCount("abc") == 3)
        let numeric =
            #"{"jti":1234567890123456789,"htm":"POST","htu":"\#(DPoPProofMaker.htu)","iat":\#(Self.now)}"#
        #expect(isInvalid(check(maker.proof(claims: numeric))))
        let absent = #"{"htm":"POST","htu":"\#(DPoPProofMaker.htu)","iat":\#(Self.now)}"#
        #expect(isInvalid(check(maker.proof(claims: absent))))
    }

    /// Each claim of another JSON type than the rule's, or missing, is refused; what JSON
    /// escapes spell is read as its text (RFC 8259 §7), as the parser always read it.
    @Test func claimsOfAnotherTypeOrMissingAreRefused() throws {
        let htu = DPoPProofMaker.htu
        for claims in [
            #"{"jti":"e1j3V_bKic8-LAEB","htm":1,"htu":"\#(htu)","iat":1767225600}"#,
            #"{"jti":"e1j3V_bKic8-LAEB","htm":"POST","htu":null,"iat":1767225600}"#,
            #"{"jti":"e1j3V_bKic8-LAEB","htm":"POST","htu":["\#(htu)"],"iat":1767225600}"#,
            #"{"jti":"e1j3V_bKic8-LAEB","htm":"POST","htu":"\#(htu)","iat":true}"#,
            #"{"jti":["e1j3V_bKic8-LAEB"],"htm":"POST","htu":"\#(htu)","iat":1767225600}"#,
            #"{"jti":"e1j3V_bKic8-LAEB","htu":"\#(htu)","iat":1767225600}"#,
            #"{"jti":"e1j3V_bKic8-LAEB","htm":"POST","iat":1767225600}"#,
            #"{"jti":"e1j3V_bKic8-LAEB","htm":"POST","htu":"\#(htu)"}"#,
            #"{"jti":"e1j3V_bKic8-LAEB","htm":"POST","htu":"\#(htu)","iat":1767225600,"iat":1}"#,
        ] {
            #expect(isInvalid(check(maker.proof(claims: claims))))
        }
        let current = try #require(nonces.current(now: Self.now))
        for nonce in ["5", "null", #"["\#(current)"]"#, #"{"n":"\#(current)"}"#] {
            let claims = DPoPProofMaker.claims(extra: #","nonce":\#(nonce)"#)
            #expect(
                check(maker.proof(claims: claims), with: nonceChecker) == .failure(.nonceRequired))
        }
        let escapedHTU = htu.split(separator: "/", omittingEmptySubsequences: false)
            .joined(separator: #"\/"#)
        let escaped =
            #"{"jti":"e1j3V_bKic8-\u004cAEB","htm":"P\u004fST","htu":"\#(escapedHTU)","iat":1767225600,"nonce":"\#(current)"}"#
        let proof = try check(maker.proof(claims: escaped), with: nonceChecker).get()
        #expect(proof.proofID == Self.proofID("e1j3V_bKic8-LAEB"))
        let nested = DPoPProofMaker.claims(extra: #","cnf":{"jkt":[1,{"a":null}]}"#)
        #expect((try? check(maker.proof(claims: nested)).get()) != nil)
    }

    @Test func htmIsTheRequestMethod() {
        #expect(isInvalid(check(maker.proof(claims: DPoPProofMaker.claims(htm: "GET")))))
        #expect(isInvalid(check(maker.proof(claims: DPoPProofMaker.claims(htm: "post")))))
        #expect(isInvalid(check(maker.proof(), method: "PUT")))
    }

    @Test(arguments: [
        "https://tokenswap.example/v1/spotify/swap",
        "https://tokenswap.example/v1/linkedin/refresh",
        "http://tokenswap.example/v1/spotify/refresh",
        "https://other.example/v1/spotify/refresh",
        "https://tokenswap.example:8443/v1/spotify/refresh",
        "https://tokenswap.example/v1/spotify/refresh/",
        "https://tokenswap.example/V1/spotify/refresh",
        "https://tokenswap.example/v1/spotify%2Frefresh",
        "https://user@tokenswap.example/v1/spotify/refresh",
        "tokenswap.example/v1/spotify/refresh",
        "/v1/spotify/refresh",
        "",
    ])
    func htuMismatchesAreRefused(_ htu: String) {
        #expect(isInvalid(check(maker.proof(claims: DPoPProofMaker.claims(htu: htu)))))
    }

    /// RFC 3986 §6.2.2–6.2.3: the same URI spelled differently passes.
    @Test(arguments: [
        "HTTPS://TokenSwap.EXAMPLE/v1/spotify/refresh",
        "https://tokenswap.example:443/v1/spotify/refresh",
        "https://tokenswap.example/v1/%73potify/refresh",
        "https://tokenswap.example/v1/spotify/./refresh",
        "https://tokenswap.example/v1/x/../spotify/refresh",
        "https://tokenswap.example/v1/spotify/refresh?query=1",
        "https://tokenswap.example/v1/spotify/refresh#fragment",
    ])
    func htuEquivalencesPass(_ htu: String) {
        #expect((try? check(maker.proof(claims: DPoPProofMaker.claims(htu: htu))).get()) != nil)
    }

    /// `iat` at most 60 s (the setting) in the past and 10 s in the future, bounds
    /// included.
    @Test func iatWindowHoldsAtItsExactBounds() {
        func proof(_ iat: Int64) -> String {
            maker.proof(claims: DPoPProofMaker.claims(iat: String(iat)))
        }
        #expect((try? check(proof(Self.now - 60)).get()) != nil)
        #expect((try? check(proof(Self.now + 10)).get()) != nil)
        #expect(isInvalid(check(proof(Self.now - 61))))
        #expect(isInvalid(check(proof(Self.now + 11))))
        let strict = DPoPProofChecker(maxAgeSeconds: 5, nonces: nil)
        #expect(isInvalid(check(proof(Self.now - 6), with: strict)))
        #expect((try? check(proof(Self.now - 5), with: strict).get()) != nil)
        #expect(
            (try? check(maker.proof(claims: DPoPProofMaker.claims(iat: "\(Self.now).75"))).get())
                != nil)
        for iat in [
            #""1767225600""#, "1.7672256e9", "null", "99999999999999999999", "-9223372036854775808",
        ] {
            #expect(isInvalid(check(maker.proof(claims: DPoPProofMaker.claims(iat: iat)))))
        }
        // Saturating bounds: no overflow at the ends of the clock.
        #expect(isInvalid(check(proof(Int64.min + 5), now: .min + 30)) == false)
        #expect(isInvalid(check(proof(Self.now), now: .max)))
    }

    @Test func nonceMustBeCurrent() throws {
        let current = try #require(nonces.current(now: Self.now))
        func proof(_ nonce: String?) -> String {
            maker.proof(claims: DPoPProofMaker.claims(nonce: nonce))
        }
        #expect((try? check(proof(current), with: nonceChecker).get()) != nil)
        #expect(check(proof(nil), with: nonceChecker) == .failure(.nonceRequired))
        let stale = try #require(nonces.current(now: Self.now - 2 * DPoPNonces.stepSeconds))
        #expect(check(proof(stale), with: nonceChecker) == .failure(.nonceRequired))
        let previous = try #require(nonces.current(now: Self.now - DPoPNonces.stepSeconds))
        #expect((try? check(proof(previous), with: nonceChecker).get()) != nil)
        var forged = Base64URL.decode(Substring(current))!
        forged[0] ^= 1
        #expect(
            check(proof(Base64URL.encode(forged)), with: nonceChecker) == .failure(.nonceRequired))
        #expect(check(proof("not-a-nonce"), with: nonceChecker) == .failure(.nonceRequired))
        let otherRing = try KeyRing(parsing: "k1:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8")
        let foreign = try #require(DPoPNonces(keyRing: otherRing)?.current(now: Self.now))
        #expect(check(proof(foreign), with: nonceChecker) == .failure(.nonceRequired))
        // With nonces off a nonce is ignored.
        #expect((try? check(proof("anything")).get()) != nil)
    }

    @Test func structureAndSizesAreBounded() {
        let good = maker.proof()
        let parts = good.split(separator: ".").map(String.init)
        for text in [
            parts[0] + "." + parts[1], good + ".", "." + good, parts[0] + ".." + parts[2],
            "." + parts[1] + "." + parts[2],
            parts[0] + "." + parts[1] + ".+" + parts[2].dropFirst(),
            "", "a.b.c",
            parts[0] + "=." + parts[1] + "." + parts[2],
        ] {
            #expect(isInvalid(check(text)))
        }
        let bigHeader = maker.header(extra: #","kid":"\#(String(repeating: "k", count: 1000))""#)
        #expect(isInvalid(check(maker.proof(header: bigHeader))))
        let bigClaims = DPoPProofMaker.claims(
            extra: #","pad":"\#(String(repeating: "p", count: 2000))""#)
        #expect(isInvalid(check(maker.proof(claims: bigClaims))))
        // Each part at its bound exactly (1024 and 2048 bytes), the whole beyond 4096
        // characters; one byte less in each passes.
        func padded(_ make: (String) -> String, to count: Int) -> String {
            make(String(repeating: "p", count: count - make("").utf8.count))
        }
        let wideHeader = padded({ maker.header(extra: #","kid":"\#($0)""#) }, to: 1024)
        let wideClaims = padded({ DPoPProofMaker.claims(extra: #","pad":"\#($0)""#) }, to: 2048)
        #expect(wideHeader.utf8.count == 1024 && wideClaims.utf8.count == 2048)
        #expect(maker.proof(header: wideHeader, claims: wideClaims).utf8.count > 4096)
        #expect(isInvalid(check(maker.proof(header: wideHeader, claims: wideClaims))))
        let fitting = maker.proof(
            header: padded({ maker.header(extra: #","kid":"\#($0)""#) }, to: 990),
            claims: padded({ DPoPProofMaker.claims(extra: #","pad":"\#($0)""#) }, to: 2000))
        #expect(fitting.utf8.count <= 4096)
        #expect((try? check(fitting).get()) != nil)
        let overHeader = padded({ maker.header(extra: #","kid":"\#($0)""#) }, to: 1025)
        #expect(isInvalid(check(maker.proof(header: overHeader))))
        let overClaims = padded({ DPoPProofMaker.claims(extra: #","pad":"\#($0)""#) }, to: 2049)
        #expect(isInvalid(check(maker.proof(claims: overClaims))))
        #expect(isInvalid(check(String(repeating: "A", count: 1_000_000))))
        #expect(isInvalid(check(maker.proof(header: "[1]"))))
        #expect(isInvalid(check(maker.proof(header: "{"))))
        #expect(isInvalid(check(maker.proof(claims: "\"claims\""))))
    }

    @Test func duplicateMembersAreRefused() {
        #expect(isInvalid(check(maker.proof(header: maker.header(extra: #","alg":"none""#)))))
        #expect(
            isInvalid(
                check(maker.proof(header: maker.header(jwk: maker.jwk(extra: #","x":"AA""#))))))
        #expect(
            isInvalid(
                check(
                    maker.proof(
                        claims: DPoPProofMaker.claims(extra: #","htu":"https://x.example/""#)))))
        #expect(
            isInvalid(
                check(
                    maker.proof(
                        claims: DPoPProofMaker.claims(extra: #","jti":"another-jti-0123456""#)))))
    }

    /// The replay check through §12's store (the memory store, on a test clock): first
    /// use passes, the same `jti` at the same provider is replayed, at another provider it
    /// is not; it is remembered for the whole `iat` window (60 + 10 s) and a second more.
    @Test func replayedJTIIsRefused() throws {
        let clock = Atomic<UInt64>(1_000_000_000_000)
        let store = MemoryStateStore(clock: {
            Deadline(uptimeNanoseconds: clock.load(ordering: .relaxed))
        })
        let proof = maker.proof()
        let verdicts = Mutex<[DPoPReplayVerdict]>([])
        func record(_ provider: String) throws {
            let key = try #require(try check(proof, provider: provider).get().proofID)
            store.recordProofID(key, client: .unknown, keepFor: checker.replayWindow) { result in
                verdicts.withLock { $0.append(DPoPProofChecker.verdict(result)) }
            }
        }
        try record("spotify")
        try record("spotify")
        try record("linkedin")
        clock.add(70_999_000_000, ordering: .relaxed)
        try record("spotify")
        clock.add(2_000_000_000, ordering: .relaxed)
        try record("spotify")
        #expect(
            verdicts.withLock { $0 } == [.firstUse, .replayed, .firstUse, .replayed, .firstUse])
        #expect(checker.replayWindow == .seconds(71))
        #expect(DPoPProofFailure.replayed.outcome == .replayed)
    }

    /// No failure text quotes the proof, its `jti`, its key or its nonce.
    @Test func failuresNameTheRuleOnly() {
        let jti = "secret-jti-value-0123"
        let proofs = [
            maker.proof(claims: DPoPProofMaker.claims(jti: jti, htm: "GET")),
            maker.proof(
                header: maker.header(alg: "HS256"), claims: DPoPProofMaker.claims(jti: jti)),
            maker.proof(claims: DPoPProofMaker.claims(jti: jti, iat: "1")),
        ]
        for proof in proofs {
            guard case .failure(let failure) = check(proof) else {
                Issue.record("accepted")
                continue
            }
            let text = String(describing: failure)
            #expect(!text.contains(jti) && !text.contains(Base64URL.encode(maker.x)))
            #expect(!text.contains(String(proof.prefix(20))))
        }
    }

    /// Proofs made by a JOSE library nobody here wrote (Python `joserfc` 1.6.5, `jwt.encode`
    /// with the key d = 0x0102…20, at `now`): its ES256 proof passes with the thumbprint
    /// joserfc itself computes (`ECKey.thumbprint()`, the same as `SealingTests`' RFC 7638
    /// vector), and its HS256 proof and its proof with the private `jwk` are refused.
    @Test func proofsOfAThirdPartyLibrary() throws {
        let es256 =
            "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwiY3J2IjoiUC0yNTYiLCJ4IjoiVVZ3OWJybmpscmtFMF83S2YxVDl6UXpCNlplX04xM0tVVnJRcHNPMEExOCIsInkiOiJSVGEtT2xEekdQdjVwVWRaQXFJaFVDdnZEVmZnakZPeXpBcFc4WDJmazFRIn19.eyJqdGkiOiJqb3NlcmZjLXByb29mLTAwMDEiLCJodG0iOiJQT1NUIiwiaHR1IjoiaHR0cHM6Ly90b2tlbnN3YXAuZXhhbXBsZS92MS9zcG90aWZ5L3JlZnJlc2giLCJpYXQiOjE3NjcyMjU2MDB9.1fvYx5cXsGM05V6rReESLr5aFx9vn_6N43iU-nR-woJG0GsbiQSU1gO60ugtzqzAt8UMdc4bcpi-c4IlGDUByw"
        let hs256 =
            "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkhTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwiY3J2IjoiUC0yNTYiLCJ4IjoiVVZ3OWJybmpscmtFMF83S2YxVDl6UXpCNlplX04xM0tVVnJRcHNPMEExOCIsInkiOiJSVGEtT2xEekdQdjVwVWRaQXFJaFVDdnZEVmZnakZPeXpBcFc4WDJmazFRIn19.eyJqdGkiOiJqb3NlcmZjLXByb29mLTAwMDEiLCJodG0iOiJQT1NUIiwiaHR1IjoiaHR0cHM6Ly90b2tlbnN3YXAuZXhhbXBsZS92MS9zcG90aWZ5L3JlZnJlc2giLCJpYXQiOjE3NjcyMjU2MDB9.c5RmY_3C_6JG--JZt4Mvclx99Va5TJnziYOu2mYzy1Y"
        let privateJWK =
            "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7ImNydiI6IlAtMjU2IiwieCI6IlVWdzlicm5qbHJrRTBfN0tmMVQ5elF6QjZaZV9OMTNLVVZyUXBzTzBBMTgiLCJ5IjoiUlRhLU9sRHpHUHY1cFVkWkFxSWhVQ3Z2RFZmZ2pGT3l6QXBXOFgyZmsxUSIsImQiOiJBUUlEQkFVR0J3Z0pDZ3NNRFE0UEVCRVNFeFFWRmhjWUdSb2JIQjBlSHlBIiwia3R5IjoiRUMifX0.eyJqdGkiOiJqb3NlcmZjLXByb29mLTAwMDEiLCJodG0iOiJQT1NUIiwiaHR1IjoiaHR0cHM6Ly90b2tlbnN3YXAuZXhhbXBsZS92MS9zcG90aWZ5L3JlZnJlc2giLCJpYXQiOjE3NjcyMjU2MDB9.GHNGgVXKi_PlTOdzaQRXbx8Wm7WJNt-E8P5_r_bSCwq68FqgPSKGoYwSxPTnXvyj7DkwpRCcYeCWdbQz6UkCaw"
        let proof = try check(es256).get()
        #expect(Base64URL.encode(proof.thumbprint) == "6UoWwDCkLjV0J-pQG8c0THxbVhBcpR0AZDift1Yl5DM")
        #expect(isInvalid(check(hs256)))
        #expect(isInvalid(check(privateJWK)))
        #expect(isInvalid(check(es256, now: Self.now + 61)))
    }

    @Test func outcomesAreTheMetricsLabels() {
        #expect(
            DPoPOutcome.allCases.map(\.rawValue) == [
                "valid", "invalid", "nonce_required", "replayed", "key_mismatch", "missing",
            ])
        #expect(DPoPProofFailure.missing.outcome == .missing)
        #expect(DPoPProofFailure.invalid("x").outcome == .invalid)
        #expect(DPoPProofFailure.nonceRequired.outcome == .nonceRequired)
    }
}
