import Foundation
import Testing

/// DPoP (CONTRACT §13) through the real binary and its sandbox, with proofs signed by
/// swift-crypto: the nonce dance, a bound token that refreshes only with its key (and
/// keeps rotating), a stolen copy refused without a provider call, `required` mode, and
/// no proof or key in the output.
@Suite(.serialized, .resourceClass(.processes)) struct DPoPSandboxTests {
    /// Sends `fields` to `path` with a proof by `key`, answering a `use_dpop_nonce` once
    /// with the nonce given, as a client does.
    static func proved(
        _ path: String, _ fields: [(String, String)], key: DPoPKey, port: UInt16,
        nonce: inout String?, proofs: inout [String]
    ) async throws -> Exchange.Answer {
        var proof = try key.proof(path: path, port: port, nonce: nonce)
        proofs.append(proof)
        var answer = try await Exchange.form(path, port: port, fields, dpop: [proof])
        if answer.error == "use_dpop_nonce", let fresh = answer.header("DPoP-Nonce") {
            nonce = fresh
            proof = try key.proof(path: path, port: port, nonce: fresh)
            proofs.append(proof)
            answer = try await Exchange.form(path, port: port, fields, dpop: [proof])
        }
        if let fresh = answer.header("DPoP-Nonce") { nonce = fresh }
        return answer
    }

    @Test func boundTokenRefreshesOnlyWithItsKey() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let port = server.port
        let key = DPoPKey()
        var nonce: String?
        var proofs: [String] = []
        let code = try await SandboxFlowTests.authorize(port)

        // A proof without a nonce is answered use_dpop_nonce with one.
        let first = try await Exchange.form(
            "/v1/swap", port: port, [("code", code)],
            dpop: [try key.proof(path: "/v1/swap", port: port)])
        #expect(first.status == 400)
        #expect(first.error == "use_dpop_nonce")
        #expect(first.header("DPoP-Nonce") != nil)

        let swap = try await Self.proved(
            "/v1/swap", [("code", code)], key: key, port: port, nonce: &nonce, proofs: &proofs)
        #expect(swap.status == 200)
        #expect(swap.header("DPoP-Nonce") != nil)
        #expect(swap.string("token_type") == "Bearer")
        let sealed = try #require(swap.string("refresh_token"))

        // The stolen copy: no proof, or a proof by the thief's own key.
        let bare = try await Exchange.form(
            "/v1/refresh", port: port, [("refresh_token", sealed)])
        #expect(bare.status == 400)
        #expect(bare.error == "invalid_grant")
        var thiefNonce: String?
        var thiefProofs: [String] = []
        let thief = try await Self.proved(
            "/v1/refresh", [("refresh_token", sealed)], key: DPoPKey(), port: port,
            nonce: &thiefNonce, proofs: &thiefProofs)
        #expect(thief.status == 400)
        #expect(thief.error == "invalid_grant")

        // The owner refreshes, and the rotated token stays bound.
        let refresh = try await Self.proved(
            "/v1/refresh", [("refresh_token", sealed)], key: key, port: port, nonce: &nonce,
            proofs: &proofs)
        #expect(refresh.status == 200)
        let rotated = try #require(refresh.string("refresh_token"))
        let unproved = try await Exchange.form(
            "/v1/refresh", port: port, [("refresh_token", rotated)])
        #expect(unproved.error == "invalid_grant")
        let again = try await Self.proved(
            "/v1/spotify/refresh", [("refresh_token", rotated)], key: key, port: port,
            nonce: &nonce, proofs: &proofs)
        #expect(again.status == 200)

        // A replayed proof is refused.
        let replayed = try await Exchange.form(
            "/v1/refresh", port: port, [("refresh_token", rotated)], dpop: [proofs.last!])
        #expect(replayed.status == 400)
        #expect(replayed.error == "invalid_dpop_proof")

        #expect(try await server.stop() == 0)
        expectNoSecrets(in: [server.output], proofs + thiefProofs + [sealed, rotated])
    }

    /// An app without DPoP keeps working at `optional`, adopts binding with its first
    /// proof, and is refused at `required`.
    @Test func unboundTokensAdoptAndRequiredRefuses() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let port = server.port
        let swap = try await Exchange.form(
            "/v1/swap", port: port, [("code", try await SandboxFlowTests.authorize(port))])
        #expect(swap.status == 200)
        #expect(swap.header("DPoP-Nonce") == nil)
        let sealed = try #require(swap.string("refresh_token"))
        let key = DPoPKey()
        var nonce: String?
        var proofs: [String] = []
        let adopted = try await Self.proved(
            "/v1/refresh", [("refresh_token", sealed)], key: key, port: port, nonce: &nonce,
            proofs: &proofs)
        #expect(adopted.status == 200)
        let bound = try #require(adopted.string("refresh_token"))
        let bare = try await Exchange.form("/v1/refresh", port: port, [("refresh_token", bound)])
        #expect(bare.error == "invalid_grant")
        #expect(try await server.stop() == 0)

        let strict = try await TokenSwapProcess.serve(
            ["--sandbox"], environment: ["TOKENSWAP_SPOTIFY_DPOP": "required"])
        let refused = try await Exchange.form(
            "/v1/swap", port: strict.port,
            [("code", try await SandboxFlowTests.authorize(strict.port))])
        #expect(refused.status == 400)
        #expect(refused.error == "invalid_dpop_proof")
        #expect(try await strict.stop() == 0)
    }
}
