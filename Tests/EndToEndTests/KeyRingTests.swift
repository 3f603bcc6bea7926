import Foundation
import Testing

/// Key rotation across restarts, and several instances sharing one key ring (CONTRACT
/// §4, §6), with the same stub provider behind every instance.
// Serialized: each test starts processes; the whole test run shares a 2-core machine with
// timing-sensitive suites, so the cases of a table go one after another, not all at once.
@Suite(.serialized, .resourceClass(.processes)) struct KeyRingTests {
    static var tokens: [String: Any] {
        ["access_token": "at-ring", "token_type": "Bearer", "expires_in": 3600]
    }

    @Test func rotationAThenBAThenB() async throws {
        let keyA = Deployment.newKey("A")
        let keyB = Deployment.newKey("B")
        let deployment = Deployment()
        let stub = try await ProviderStub.start()
        func serve(_ keys: String) async throws -> TokenSwapProcess {
            try await TokenSwapProcess.serve(
                environment: deployment.environment(tokenURL: stub.tokenURL(), keys: keys))
        }
        var outputs: [String] = []

        // Under A: a token sealed under A.
        try await stub.answerTokens(Self.tokens.merging(["refresh_token": "rt-ring"]) { $1 })
        let first = try await serve(keyA)
        let swap = try await Exchange.form("/v1/swap", port: first.port, [("code", "code-ring")])
        let sealedA = try #require(swap.string("refresh_token"))
        #expect(try await first.stop() == 0)
        outputs.append(first.output)

        // Under B,A: the A token opens; the provider does not rotate, so the answer is the
        // same raw token resealed under B (a different sealed value).
        try await stub.answerTokens(Self.tokens)
        let second = try await serve("\(keyB),\(keyA)")
        let resealed = try await Exchange.form(
            "/v1/refresh", port: second.port, [("refresh_token", sealedA)])
        #expect(resealed.status == 200)
        let sealedB = try #require(resealed.string("refresh_token"))
        #expect(sealedB != sealedA)
        // Sealed under the active key now: sent again, it comes back byte for byte.
        let stable = try await Exchange.form(
            "/v1/refresh", port: second.port, [("refresh_token", sealedB)])
        #expect(stable.string("refresh_token") == sealedB)
        #expect(try await second.stop() == 0)
        outputs.append(second.output)

        // Under B alone: the B token works, the A token is dead (invalid_grant).
        let third = try await serve(keyB)
        let underB = try await Exchange.form(
            "/v1/refresh", port: third.port, [("refresh_token", sealedB)])
        #expect(underB.status == 200)
        #expect(underB.string("refresh_token") == sealedB)
        let dead = try await Exchange.form(
            "/v1/refresh", port: third.port, [("refresh_token", sealedA)])
        #expect(dead.status == 400)
        #expect(dead.error == "invalid_grant")
        #expect(try await third.stop() == 0)
        outputs.append(third.output)

        // Every refresh the provider saw carried the one raw token.
        let received = try await stub.received()
        #expect(received.count == 4)
        #expect(received.dropFirst().allSatisfy { $0.form["refresh_token"] == "rt-ring" })
        expectNoSecrets(
            in: outputs + [stub.errorOutput],
            [deployment.clientSecret, "code-ring", "rt-ring", "at-ring", sealedA, sealedB]
                + Deployment.keyMaterial(keyA) + Deployment.keyMaterial(keyB))
    }

    @Test func twoInstancesOpenEachOthersTokens() async throws {
        let keys = Deployment.newKey("shared")
        let deployment = Deployment()
        let stub = try await ProviderStub.start()
        try await stub.answerTokens(Self.tokens.merging(["refresh_token": "rt-two"]) { $1 })
        // Replay off: each copy keeps its own window (CONTRACT §12), and this test's repeat
        // of one token on copy two must reach the provider.
        let environment = deployment.environment(
            tokenURL: stub.tokenURL(), keys: keys,
            extra: ["TOKENSWAP_REFRESH_REPLAY_SECONDS": "0"])
        let one = try await TokenSwapProcess.serve(environment: environment)
        let two = try await TokenSwapProcess.serve(environment: environment)
        let swap = try await Exchange.form("/v1/swap", port: one.port, [("code", "code-two")])
        let sealed = try #require(swap.string("refresh_token"))
        let onTwo = try await Exchange.form(
            "/v1/refresh", port: two.port, [("refresh_token", sealed)])
        #expect(onTwo.status == 200)
        try await stub.answerTokens(Self.tokens.merging(["refresh_token": "rt-two-rotated"]) { $1 })
        let rotated = try await Exchange.form(
            "/v1/refresh", port: two.port, [("refresh_token", sealed)])
        let sealedByTwo = try #require(rotated.string("refresh_token"))
        let backOnOne = try await Exchange.form(
            "/v1/refresh", port: one.port, [("refresh_token", sealedByTwo)])
        #expect(backOnOne.status == 200)
        #expect(try await stub.received().last?.form["refresh_token"] == "rt-two-rotated")

        // An instance with another key ring cannot open them.
        let stranger = try await TokenSwapProcess.serve(
            environment: deployment.environment(
                tokenURL: stub.tokenURL(), keys: Deployment.newKey("shared")))
        let refused = try await Exchange.form(
            "/v1/refresh", port: stranger.port, [("refresh_token", sealed)])
        #expect(refused.error == "invalid_grant")
        for process in [one, two, stranger] { #expect(try await process.stop() == 0) }
        expectNoSecrets(
            in: [one.output, two.output, stranger.output, stub.errorOutput],
            [deployment.clientSecret, "code-two", "rt-two", sealed, sealedByTwo]
                + Deployment.keyMaterial(keys))
    }
}
