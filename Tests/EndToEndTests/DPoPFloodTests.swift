import Crypto
import Foundation
import Testing

/// Issue 34 item 2 through the real binary: DPoP replay protection cannot be flushed. A
/// flood of an attacker's own proofs, aimed at the captured proof's place in the table the
/// fix replaced, must not make room by forgetting the captured proof's `jti` (CONTRACT §13:
/// a live proof id is never dropped to make room); past its sixteenth of the proof ids the
/// attacker is answered 503 with `Retry-After`, and other clients are not. A full table
/// refuses every new proof the same way (`TOKENSWAP_DPOP_PROOF_IDS`).
@Suite(.serialized, .resourceClass(.processes)) struct DPoPFloodTests {
    /// Clients are told apart by a trusted proxy's `X-Forwarded-For` (CONTRACT §15).
    static let environment = [
        "TOKENSWAP_SPOTIFY_DPOP": "required", "TOKENSWAP_TRUSTED_PROXIES": "127.0.0.1",
        // The flood takes seconds on a loaded machine: the captured proof stays within its
        // `iat` window (and its id remembered) throughout.
        "TOKENSWAP_DPOP_MAX_AGE_SECONDS": "600",
    ]

    /// The shard the table before the fix kept `jti` in: the first eight bytes of
    /// SHA-256(`j` 0 `spotify` 0 jti) modulo its 16 shards (`StateKey`, `ShardedTable`).
    static func oldShard(_ jti: String) -> UInt64 {
        let digest = SHA256.hash(data: Data("j\u{0}spotify\u{0}\(jti)".utf8))
        return digest.prefix(8).reduce(0) { $0 << 8 | UInt64($1) } % 16
    }

    /// A refresh of `token` with `proof` from `client`.
    static func refresh(_ token: String, proof: String, client: String, port: UInt16)
        async throws -> Exchange.Answer
    {
        try await post(
            "/v1/refresh", "refresh_token=\(Exchange.encode(token))", proof, client, port)
    }

    /// A swap of a code the sandbox refuses (`sandbox-invalid`) with `proof` from `client`:
    /// a swap records its proof's id before the provider is called, so each is one id.
    static func refusedSwap(proof: String, client: String, port: UInt16) async throws
        -> Exchange.Answer
    {
        try await post("/v1/swap", "code=sandbox-invalid", proof, client, port)
    }

    static func post(
        _ path: String, _ body: String, _ proof: String, _ client: String, _ port: UInt16
    ) async throws -> Exchange.Answer {
        try await Exchange.request(
            "POST", path, port: port,
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"), ("DPoP", proof),
                ("X-Forwarded-For", client),
            ], body: body)
    }

    /// A nonce for the next proofs: the one every answer to a proof carries.
    static func nonce(_ key: DPoPKey, port: UInt16) async throws -> String {
        let answer = try await refusedSwap(
            proof: try key.proof(path: "/v1/swap", port: port), client: "192.0.2.200",
            port: port)
        return try #require(answer.header("DPoP-Nonce"))
    }

    @Test func aFloodOfOwnProofsCannotFlushACapturedProofsID() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: Self.environment)
        let port = server.port
        let victim = DPoPKey()
        let victimAddress = "198.51.100.7"
        let attackerAddress = "203.0.113.9"
        var nonce = try await Self.nonce(victim, port: port)

        // The victim's app swaps and refreshes; its refresh's proof and token are captured.
        let code = try await SandboxFlowTests.authorize(port)
        let swap = try await Exchange.request(
            "POST", "/v1/swap", port: port,
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"),
                ("DPoP", try victim.proof(path: "/v1/swap", port: port, nonce: nonce)),
                ("X-Forwarded-For", victimAddress),
            ], body: "code=\(Exchange.encode(code))")
        #expect(swap.status == 200)
        let sealed = try #require(swap.string("refresh_token"))
        let capturedJTI = UUID().uuidString
        let captured = try victim.proof(
            path: "/v1/refresh", port: port, nonce: nonce, jti: capturedJTI)
        let first = try await Self.refresh(
            sealed, proof: captured, client: victimAddress, port: port)
        #expect(first.status == 200)
        // The sandbox rotates on every refresh: the victim's app refreshes next with the
        // token this answer carries. (Reusing `sealed` passed only as a replay within the
        // 60 s replay window, and a flood slower than that on a loaded machine made it a
        // provider call with a token rotated away: 400.)
        let current = try #require(first.string("refresh_token"))
        nonce = first.header("DPoP-Nonce") ?? nonce

        // 6,400 of the attacker's own valid proofs, every one aimed at the captured id's
        // shard of the old table (6,250 ids a shard), each with a swap the sandbox refuses.
        let attacker = DPoPKey()
        let target = Self.oldShard(capturedJTI)
        var jtis: [String] = []
        while jtis.count < 6_400 {
            let jti = UUID().uuidString
            if Self.oldShard(jti) == target { jtis.append(jti) }
        }
        let proofs = try jtis.map {
            try attacker.proof(path: "/v1/swap", port: port, nonce: nonce, jti: $0)
        }
        let answers = try await withThrowingTaskGroup(of: [Exchange.Answer].self) { group in
            let lanes = 8
            for lane in 0..<lanes {
                let mine = stride(from: lane, to: proofs.count, by: lanes).map { proofs[$0] }
                group.addTask {
                    var answers: [Exchange.Answer] = []
                    for proof in mine {
                        answers.append(
                            try await Self.refusedSwap(
                                proof: proof, client: attackerAddress, port: port))
                    }
                    return answers
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        // Its own proofs pass up to its share (100000 / 16), and then wait for room.
        #expect(answers.filter { $0.status != 503 }.count == 6_250)
        #expect(!answers.contains { $0.status == 200 })
        let refused = answers.filter { $0.status == 503 }
        #expect(refused.count == 150)
        #expect(refused.allSatisfy { $0.error == "temporarily_unavailable" })
        #expect(refused.allSatisfy { Int($0.header("Retry-After") ?? "") ?? 0 >= 1 })

        // The captured proof, replayed with the captured token: still refused.
        let replay = try await Self.refresh(
            sealed, proof: captured, client: attackerAddress, port: port)
        #expect(replay.status == 400)
        #expect(replay.error == "invalid_dpop_proof")
        #expect(replay.string("access_token") == nil)

        // The attacker locked out no one else: the victim's next refresh goes through.
        let next = try await Self.refresh(
            current,
            proof: try victim.proof(path: "/v1/refresh", port: port, nonce: nonce),
            client: victimAddress, port: port)
        #expect(next.status == 200)

        #expect(try await server.stop() == 0)
        expectNoSecrets(in: [server.output], [captured, sealed, capturedJTI] + jtis.prefix(10))
    }

    /// With `TOKENSWAP_DPOP_PROOF_IDS=32` sixteen clients at their share (2) fill the
    /// table: a seventeenth client's proof is answered 503 with `Retry-After`, a replay is
    /// still `invalid_dpop_proof`, and `check-config` says what the memory holds.
    @Test func aFullTableRefusesNewProofsWithRetryAfter() async throws {
        var environment = Self.environment
        environment["TOKENSWAP_DPOP_PROOF_IDS"] = "32"
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: environment)
        let port = server.port
        let key = DPoPKey()
        let nonce = try await Self.nonce(key, port: port)
        var kept: [String] = []
        for client in 1...16 {
            for _ in 0..<2 {
                let proof = try key.proof(path: "/v1/swap", port: port, nonce: nonce)
                let answer = try await Self.refusedSwap(
                    proof: proof, client: "192.0.2.\(client)", port: port)
                #expect(answer.error == "invalid_grant")
                kept.append(proof)
            }
        }
        let late = try await Self.refusedSwap(
            proof: try key.proof(path: "/v1/swap", port: port, nonce: nonce),
            client: "198.51.100.1", port: port)
        #expect(late.status == 503)
        #expect(late.error == "temporarily_unavailable")
        let retryAfter = try #require(Int(late.header("Retry-After") ?? ""))
        #expect((1...611).contains(retryAfter))
        let replay = try await Self.refusedSwap(
            proof: kept[0], client: "198.51.100.1", port: port)
        #expect(replay.error == "invalid_dpop_proof")
        #expect(try await server.stop() == 0)

        let check = try await TokenSwapProcess.run(
            ["check-config", "--sandbox"], environment: environment)
        #expect(check.status == 0)
        #expect(check.stdout.contains("DPoP proof ids: in this copy's memory, up to 32"))
        #expect(check.stdout.contains("2 per client"))
    }
}
