import Foundation
import Testing

/// The sandbox as an attacker meets it: the banner does not call configured keys
/// ephemeral, HEAD on the authorize endpoint mints no code, and the token endpoint (a
/// client-secret check) is rate limited per client.
@Suite(.resourceClass(.processes)) struct SandboxHardeningTests {
    @Test func bannerSaysPlainlyWhenRealKeysAreSet() async throws {
        let key = Deployment.newKey("real")
        let server = try await TokenSwapProcess.serve(
            ["--sandbox"], environment: ["TOKENSWAP_ENCRYPTION_KEYS": key])
        #expect(try await server.stop() == 0)
        #expect(server.standardError.contains("REAL KEYS ARE SET (TOKENSWAP_ENCRYPTION_KEYS)"))
        #expect(!server.standardError.contains("keys are ephemeral"))
        expectNoSecrets(in: [server.output], Deployment.keyMaterial(key))

        let ephemeral = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        #expect(try await ephemeral.stop() == 0)
        #expect(ephemeral.standardError.contains("keys are ephemeral"))
    }

    @Test func headOnAuthorizeMintsNoCodeAndTokenGuessesAreLimited() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let head = try await Exchange.request(
            "HEAD", "/sandbox/authorize?state=s", port: server.port)
        #expect(head.status == 405)
        #expect(head.header("Location") == nil)
        let get = try await Exchange.request("GET", "/sandbox/authorize?state=s", port: server.port)
        #expect(get.status == 302)

        // All at once, so that they arrive well inside the refill of the burst even on a
        // loaded machine (one after another, 30 slow requests may never find it empty).
        let started = ContinuousClock.now
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<30 {
                group.addTask {
                    try await Exchange.request(
                        "POST", "/sandbox/token", port: server.port,
                        headers: [
                            ("Content-Type", "application/x-www-form-urlencoded"),
                            (
                                "Authorization",
                                "Basic " + Data("sandbox-spotify:guess".utf8).base64EncodedString()
                            ),
                        ],
                        body: "grant_type=authorization_code&code=x"
                    ).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        // Burst 10, then 5 a second: at most that many get through in the time taken (a
        // loaded machine makes the 30 requests slower, and the allowance with it).
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds)
        let allowed = 10 + Int((5 * (seconds + 1)).rounded(.up))
        #expect(statuses.contains(401))
        #expect(statuses.contains(429), "\(statuses)")
        #expect(statuses.count { $0 != 429 } <= allowed, "\(statuses) in \(elapsed)")
        #expect(try await server.stop() == 0)
    }
}
