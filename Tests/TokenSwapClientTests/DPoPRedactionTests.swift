import Crypto
import Foundation
import Testing

@testable import TokenSwapClient

/// No proof and no key in any description, debug description, dump, error or event
/// (CONTRACT §13): the proof as sent, each of its parts, the key's coordinates, its
/// private scalar and its thumbprint.
@Suite struct DPoPRedactionTests {
    @Test func noValueOfTheKitPrintsAProofOrAKey() async throws {
        let privateKey = P256.Signing.PrivateKey()
        let key = DPoPKey(privateKey)
        let keys = MemoryDPoPKeyStore(key)
        let fixture = try SessionFixture(storedRefreshToken: nil, dpop: .keyStore(keys))
        _ = try await fixture.signedIn()
        await fixture.server.script(
            "/v1/device/code", .answer(status: 200, body: DeviceFlowTests.started))
        await fixture.server.script(
            "/v1/device/token",
            .answer(status: 400, body: DPoPProofTests.useNonce, headers: ["DPoP-Nonce": "n-1"]),
            .answer(status: 400, body: DPoPProofTests.useNonce, headers: ["DPoP-Nonce": "n-2"]))
        let started = try await fixture.session.deviceFlow.start()
        var failure: (any Error)? = nil
        do {
            try await fixture.session.signIn(approving: started)
        } catch {
            failure = error
        }
        let answer = try await fixture.session.backend.swap(code: "c", dpopKey: key)
        let stored = StoredCredentials(
            refreshToken: RedactedToken("r"), grantExpiresAtEpochSeconds: 1,
            dpopKeyThumbprint: key.thumbprint)

        let proofs = await fixture.server.requests.compactMap(\.dpop)
        #expect(proofs.count == 5)
        var secrets = proofs
        secrets += proofs.flatMap { $0.split(separator: ".").map(String.init) }
        secrets += [
            Base64URL.encode(privateKey.publicKey.rawRepresentation.prefix(32)),
            Base64URL.encode(privateKey.publicKey.rawRepresentation.suffix(32)),
            Base64URL.encode(privateKey.rawRepresentation), key.thumbprint,
        ]
        let values: [Any] = [
            key, keys, started, answer, stored, fixture.session,
            DPoPMode.keyStore(keys), try #require(failure), await fixture.events(1),
        ]
        for value in values {
            let text = RedactionTests.everyRendering(of: value)
            for secret in secrets {
                #expect(
                    !text.contains(secret), "a proof or key part appeared in \(type(of: value))")
            }
        }
        #expect(String(describing: key) == "DPoPKey(P-256)")
    }
}
