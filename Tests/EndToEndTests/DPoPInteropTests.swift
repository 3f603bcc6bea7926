import Foundation
import TestSupport
import Testing

@testable import TokenSwapClient

/// The client kit's DPoP proofs (CONTRACT §13) as a JOSE library nobody here wrote reads
/// them: Python `joserfc`, in the client-library venv that .ci/run installs
/// (`TOKENSWAP_TEST_PYTHON`), verifies a proof's ES256 signature with the key in its
/// header, finds the claims the kit meant, computes the same RFC 7638 thumbprint, and
/// refuses the proof with one signature character changed (Fixtures/dpop_interop.py).
/// The other direction, tokenswap reading joserfc's proofs, is
/// `DPoPProofCheckerTests.proofsOfAThirdPartyLibrary`. A missing library fails the test.
@Suite(.serialized, .resourceClass(.processes)) struct DPoPInteropTests {
    @Test func theKitsProofsVerifyWithJoserfc() async throws {
        let key = TokenSwapClient.DPoPKey.generate()
        let url = try #require(URL(string: "https://tokenswap.example/v1/spotify/refresh?a=1#f"))
        let proof = try DPoPProof.make(
            key: key, method: "POST", url: url, issuedAt: 1_767_225_600, nonce: "server-nonce-1")
        // One character in the middle of the signature, so the text stays base64url.
        var characters = Array(proof)
        let index = characters.count - 20
        characters[index] = characters[index] == "A" ? "B" : "A"
        let tampered = String(characters)
        let python = ProcessInfo.processInfo.environment["TOKENSWAP_TEST_PYTHON"] ?? "python3"
        let result = try await offPool {
            try ChildProcess.run(
                python,
                [
                    Fixture.path("dpop_interop.py"), proof, tampered, key.thumbprint, "POST",
                    "https://tokenswap.example/v1/spotify/refresh", "1767225600",
                    "server-nonce-1",
                ], timeoutSeconds: 60)
        }
        let passed: Bool
        if case .exited(0) = result.status { passed = true } else { passed = false }
        #expect(passed, "dpop_interop.py:\n\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("ok   joserfc: the kit's proof verifies"))
        #expect(result.stdout.contains("ok   joserfc: a changed signature does not verify"))
        #expect(result.stdout.contains("ok   joserfc: the same RFC 7638 thumbprint as the kit's"))
    }
}
