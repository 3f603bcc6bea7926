import Crypto
import Foundation
import Testing

@testable import TokenSwapClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The proofs the kit sends (RFC 9449 §4.2, CONTRACT §13) and the nonce dance (§8): what a
/// server checks, checked here as a server would.
@Suite struct DPoPProofTests {
    static let useNonce = #"{"error":"use_dpop_nonce","error_description":"a nonce is needed"}"#

    /// The one proof a refresh sent.
    private func proofOfARefresh(
        _ fixture: SessionFixture, key: DPoPKey
    ) async throws -> String {
        _ = try await fixture.session.backend.refresh(RedactedToken("refresh-0"), dpopKey: key)
        return try #require(await fixture.server.requests.last?.dpop)
    }

    @Test func aProofHasExactlyTheHeaderAndClaimsOfRFC9449() async throws {
        let fixture = try SessionFixture()
        let privateKey = P256.Signing.PrivateKey()
        let key = DPoPKey(privateKey)
        let proof = try DecodedProof(try await proofOfARefresh(fixture, key: key))

        let raw = privateKey.publicKey.rawRepresentation
        let x = Base64URL.encode(raw.prefix(32))
        let y = Base64URL.encode(raw.suffix(32))
        #expect(
            proof.headerText
                == #"{"typ":"dpop+jwt","alg":"ES256","jwk":{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}}"#
        )
        #expect(proof.jwk == ["crv": "P-256", "kty": "EC", "x": x, "y": y])
        #expect(Set(proof.claims.keys) == ["jti", "htm", "htu", "iat"])
        #expect(proof.claims["htm"] as? String == "POST")
        #expect(proof.htu == "https://tokenswap.test/v1/refresh")
        #expect(proof.claims["iat"] as? Int == Int(ManualClock.wallStart))
        #expect(Base64URL.decode(try #require(proof.jti))?.count == 16)
        #expect(proof.signatureLength == 64)
        #expect(proof.signatureVerifies)
    }

    /// The check above can fail: a proof whose claims were changed does not verify.
    @Test func aChangedProofDoesNotVerify() async throws {
        let fixture = try SessionFixture()
        let proof = try await proofOfARefresh(fixture, key: DPoPKey.generate())
        var parts = proof.split(separator: ".").map(String.init)
        let changed =
            #"{"jti":"AAAAAAAAAAAAAAAAAAAAAA","htm":"POST","htu":"https://evil.test/","iat":1}"#
        parts[1] = Base64URL.encode(Data(changed.utf8))
        #expect(try !DecodedProof(parts.joined(separator: ".")).signatureVerifies)
    }

    @Test(
        arguments: [
            ("https://t.test/v1/refresh?x=1&y=2", "https://t.test/v1/refresh"),
            ("https://t.test/v1/refresh#frag", "https://t.test/v1/refresh"),
            ("https://t.test:8443/auth/v1/a/swap?q#f", "https://t.test:8443/auth/v1/a/swap"),
            ("http://127.0.0.1:8080/v1/device/token", "http://127.0.0.1:8080/v1/device/token"),
        ])
    func htuIsTheURLWithoutQueryAndFragment(url: String, htu: String) throws {
        let proof = try DecodedProof(
            DPoPProof.make(
                key: DPoPKey.generate(), method: "POST", url: try #require(URL(string: url)),
                issuedAt: 1, nonce: nil))
        #expect(proof.htu == htu)
        #expect(proof.signatureVerifies)
    }

    @Test func everyProofHasItsOwnJTI() async throws {
        let fixture = try SessionFixture()
        let key = DPoPKey.generate()
        var seen: Set<String> = []
        for _ in 0..<5 {
            await fixture.server.script(
                "/v1/refresh", .answer(status: 200, body: #"{"access_token":"a"}"#))
            let jti = try #require(try DecodedProof(await proofOfARefresh(fixture, key: key)).jti)
            #expect(jti.count == 22)
            seen.insert(jti)
        }
        #expect(seen.count == 5)
    }

    @Test func theNewestNonceGoesBackNextTime() async throws {
        let fixture = try SessionFixture()
        let key = DPoPKey.generate()
        let backend = fixture.session.backend
        await fixture.server.script(
            "/v1/refresh",
            .answer(status: 200, body: #"{"access_token":"a"}"#, headers: ["DPoP-Nonce": "n-1"]),
            .answer(status: 200, body: #"{"access_token":"a"}"#, headers: ["DPoP-Nonce": "n-2"]),
            .answer(status: 200, body: #"{"access_token":"a"}"#))
        for _ in 0..<3 { _ = try await backend.refresh(RedactedToken("r"), dpopKey: key) }
        // Another endpoint of the same origin gets it too.
        _ = try await backend.swap(code: "c", dpopKey: key)
        let nonces = try await fixture.server.requests.map {
            try DecodedProof(try #require($0.dpop)).nonce
        }
        #expect(nonces == [nil, "n-1", "n-2", "n-2"])
    }

    @Test func aNonceIsKeptPerOriginAndOnlyWhenItIsOne() async throws {
        let nonces = DPoPOrigins()
        let url = try #require(URL(string: "https://Tokenswap.test/v1/refresh"))
        await nonces.remember(nonce: "n-1", for: url)
        #expect(
            await nonces.nonce(
                for: try #require(URL(string: "https://tokenswap.test:443/v1/x/swap"))) == "n-1")
        for other in [
            "https://other.test/v1/refresh", "http://tokenswap.test/v1/refresh",
            "https://tokenswap.test:8443/v1/refresh",
        ] {
            #expect(await nonces.nonce(for: try #require(URL(string: other))) == nil)
        }
        // Not nonces by RFC 9449 §8.1: kept out, the last good one stays.
        for bad in ["", "a b", #"a"b"#, #"a\b"#, "é", String(repeating: "n", count: 513)] {
            await nonces.remember(nonce: bad, for: url)
        }
        #expect(await nonces.nonce(for: url) == "n-1")
        // Bounded: the oldest origins are forgotten.
        for index in 0..<DPoPOrigins.maximumOrigins {
            await nonces.remember(
                nonce: "m", for: try #require(URL(string: "https://h\(index).test/")))
        }
        #expect(await nonces.nonce(for: url) == nil)
    }

    @Test func useDPoPNonceIsRetriedOnceWithTheNonceGiven() async throws {
        let fixture = try SessionFixture()
        await fixture.server.script(
            "/v1/refresh",
            .answer(status: 400, body: Self.useNonce, headers: ["DPoP-Nonce": "fresh"]))
        let answer = try await fixture.session.backend.refresh(
            RedactedToken("refresh-0"), dpopKey: DPoPKey.generate())
        #expect(answer.accessToken.revealed == "access-1")
        let proofs = try await fixture.server.requests.map {
            try DecodedProof(try #require($0.dpop))
        }
        #expect(proofs.map(\.nonce) == [nil, "fresh"])
        #expect(proofs[0].jti != proofs[1].jti)
    }

    @Test func aSecondUseDPoPNonceIsTheCallersError() async throws {
        let fixture = try SessionFixture()
        await fixture.server.script(
            "/v1/refresh",
            .answer(status: 400, body: Self.useNonce, headers: ["DPoP-Nonce": "n-1"]),
            .answer(status: 400, body: Self.useNonce, headers: ["DPoP-Nonce": "n-2"]))
        await #expect {
            _ = try await fixture.session.backend.refresh(
                RedactedToken("r"), dpopKey: DPoPKey.generate())
        } throws: { error in
            guard case TokenSwapClientError.rejected(let answer) = error else { return false }
            return answer.status == 400 && answer.error == "use_dpop_nonce"
        }
        #expect(await fixture.server.count("/v1/refresh") == 2)
    }

    /// Without a `DPoP-Nonce` there is nothing to retry with; without a key, no proof was
    /// sent, so the answer is not about one.
    @Test func useDPoPNonceIsNotRetriedWithoutANonceOrAKey() async throws {
        let fixture = try SessionFixture()
        await fixture.server.script(
            "/v1/refresh", .answer(status: 400, body: Self.useNonce),
            .answer(status: 400, body: Self.useNonce, headers: ["DPoP-Nonce": "n"]))
        let backend = fixture.session.backend
        await #expect(throws: TokenSwapClientError.self) {
            _ = try await backend.refresh(RedactedToken("r"), dpopKey: DPoPKey.generate())
        }
        await #expect(throws: TokenSwapClientError.self) {
            _ = try await backend.refresh(RedactedToken("r"))
        }
        #expect(await fixture.server.requests.map { $0.dpop == nil } == [false, true])
    }

    /// A device clock an hour off would put every `iat` outside tokenswap's window: the
    /// server's `Date` sets it right from the next proof on; a few seconds are left alone.
    @Test func iatFollowsTheServersClockWhenTheDevicesIsOff() async throws {
        let fixture = try SessionFixture()
        let key = DPoPKey.generate()
        func date(_ offset: Double) -> [String: String] {
            [
                "Date": FakeTokenSwap.httpDate(
                    Date(timeIntervalSince1970: ManualClock.wallStart + offset))
            ]
        }
        await fixture.server.script(
            "/v1/refresh",
            .answer(status: 200, body: #"{"access_token":"a"}"#, headers: date(3)),
            .answer(status: 200, body: #"{"access_token":"a"}"#, headers: date(-3600)),
            .answer(status: 200, body: #"{"access_token":"a"}"#, headers: date(0)),
            .answer(status: 200, body: #"{"access_token":"a"}"#))
        for _ in 0..<4 {
            _ = try await fixture.session.backend.refresh(RedactedToken("r"), dpopKey: key)
        }
        let issued = try await fixture.server.requests.map {
            try DecodedProof(try #require($0.dpop)).claims["iat"] as? Int
        }
        let start = Int(ManualClock.wallStart)
        #expect(issued == [start, start, start - 3600, start])
    }

    /// A proof refused because the device's clock is off is sent once more, on the
    /// server's clock; refused again, or refused with the clocks in step, it is the
    /// caller's error.
    @Test func aProofRefusedOverAWrongClockIsSentOnceMoreOnTheServersClock() async throws {
        let fixture = try SessionFixture()
        let key = DPoPKey.generate()
        let refused = #"{"error":"invalid_dpop_proof","error_description":"iat"}"#
        func date(_ offset: Double) -> [String: String] {
            [
                "Date": FakeTokenSwap.httpDate(
                    Date(timeIntervalSince1970: ManualClock.wallStart + offset))
            ]
        }
        await fixture.server.script(
            "/v1/refresh",
            .answer(status: 400, body: refused, headers: date(-600)),
            .answer(status: 200, body: #"{"access_token":"a"}"#, headers: date(-600)),
            .answer(status: 400, body: refused, headers: date(-600)),
            .answer(status: 400, body: refused, headers: date(0)),
            .answer(status: 400, body: refused, headers: date(0)))
        let backend = fixture.session.backend
        _ = try await backend.refresh(RedactedToken("r"), dpopKey: key)
        // In step with the server now: a refusal is not about the clock.
        await #expect(throws: TokenSwapClientError.self) {
            _ = try await backend.refresh(RedactedToken("r"), dpopKey: key)
        }
        // The server's `Date` now agrees with the device: one more try on it, refused
        // again: thrown.
        await #expect(throws: TokenSwapClientError.self) {
            _ = try await backend.refresh(RedactedToken("r"), dpopKey: key)
        }
        let issued = try await fixture.server.requests.map {
            try DecodedProof(try #require($0.dpop)).claims["iat"] as? Int
        }
        let start = Int(ManualClock.wallStart)
        #expect(issued == [start, start - 600, start - 600, start - 600, start])
        // Without a proof nothing is retried.
        await fixture.server.script(
            "/v1/refresh", .answer(status: 400, body: refused, headers: date(-600)))
        await #expect(throws: TokenSwapClientError.self) {
            _ = try await backend.refresh(RedactedToken("r"))
        }
        #expect(await fixture.server.count("/v1/refresh") == 6)
    }

    /// A key that cannot sign (a Secure Enclave that refuses) is a store that does not work
    /// now: `storageUnavailable`, and nothing is sent.
    @Test func aKeyThatCannotSignSendsNothing() async throws {
        struct Refused: Error {}
        let fixture = try SessionFixture()
        let key = DPoPKey(publicKeyBytes: Data(count: 64), sign: { _ in throw Refused() })
        await #expect(throws: TokenSwapClientError.storageUnavailable) {
            _ = try await fixture.session.backend.refresh(RedactedToken("r"), dpopKey: key)
        }
        #expect(await fixture.server.requests.isEmpty)
    }

    /// RFC 9449's own example key (§4.1) and the `jkt` its §6.1 gives for it.
    @Test func theThumbprintIsRFC7638s() throws {
        let x = try #require(Base64URL.decode("l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs"))
        let y = try #require(Base64URL.decode("9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA"))
        #expect(DPoPKey.thumbprint(x + y) == "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
        let key = DPoPKey.generate()
        #expect(key.thumbprint.count == 43)
        #expect(DPoPKey.generate().thumbprint != key.thumbprint)
    }
}
