import HTTPCore
import Logging
import Sealing
import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures
@testable import TokenSwapSandbox

/// The handlers against the in-process sandbox: the whole flow an app goes through.
@Suite struct GrantEndpointsSandboxTests {
    typealias F = GrantEndpointsFixtures
    typealias S = SandboxFixtures

    static func service(
        _ sandbox: SandboxProvider, timeoutSeconds: Double = 2,
        replaySeconds: Int = ConfigurationDefaults.refreshReplaySeconds
    ) throws -> GrantEndpoints {
        GrantEndpoints(
            keyRing: try KeyRing(parsing: F.newKey), transport: sandbox,
            upstreamTimeoutSeconds: timeoutSeconds,
            logger: LogCapture().logger, refreshReplaySeconds: replaySeconds)
    }

    /// With the replay window off (CONTRACT §12: `0`), as before it: a repeat reaches the
    /// provider, which rotated. `RefreshReplaySandboxTests` has the window on.
    @Test func swapThenRefreshRotatesAndTheOldSealedTokenDies() async throws {
        let sandbox = try S.sandbox()
        let (spotify, _) = try S.providers()
        let service = try Self.service(sandbox, replaySeconds: 0)
        let code = try S.code(sandbox)
        let swap = await service.answer {
            $0.swap(
                F.form("code=\(code)&redirect_uri=myapp%3A%2F%2Fcallback"), provider: spotify,
                completion: $1)
        }.response
        #expect(swap.status.code == 200)
        let firstSealed = try #require(try F.body(swap)["refresh_token"]?.stringValue)
        #expect(!firstSealed.hasPrefix("sbr-"))

        let refresh = await service.answer {
            $0.refresh(
                F.form("refresh_token=\(firstSealed)", path: "/v1/refresh"), provider: spotify,
                completion: $1)
        }.response
        #expect(refresh.status.code == 200)
        let secondSealed = try #require(try F.body(refresh)["refresh_token"]?.stringValue)
        #expect(secondSealed != firstSealed)
        #expect(try F.body(refresh)["expires_in"] == .number("3600"))

        // The sandbox rotated, so the first token is dead upstream: a 4xx invalid_grant.
        let replay = await service.answer {
            $0.refresh(
                F.form("refresh_token=\(firstSealed)", path: "/v1/refresh"), provider: spotify,
                completion: $1)
        }.response
        #expect(replay.status.code == 400)
        #expect(try F.body(replay)["error"]?.stringValue == "invalid_grant")
    }

    @Test func swappedCodeCannotBeSwappedAgain() async throws {
        let sandbox = try S.sandbox()
        let (spotify, _) = try S.providers()
        let service = try Self.service(sandbox)
        let code = try S.code(sandbox)
        #expect(
            await service.answer {
                $0.swap(F.form("code=\(code)"), provider: spotify, completion: $1)
            }.response.status.code
                == 200)
        let again = await service.answer {
            $0.swap(F.form("code=\(code)"), provider: spotify, completion: $1)
        }.response
        #expect(again.status.code == 400)
        #expect(try F.body(again)["error"]?.stringValue == "invalid_grant")
    }

    @Test func pkceVerifierIsForwardedThroughTheService() async throws {
        let sandbox = try S.sandbox()
        let (spotify, _) = try S.providers()
        let code = try S.code(
            sandbox, "&code_challenge=\(SandboxProviderTests.challenge)&code_challenge_method=S256")
        let response = try await Self.service(sandbox).answer {
            $0.swap(
                F.json(#"{"code":"\#(code)","code_verifier":"\#(SandboxProviderTests.verifier)"}"#),
                provider: spotify, completion: $1)
        }.response
        #expect(response.status.code == 200)
    }

    /// Every magic value as a swap code, and planted in a refresh token, reaches the client
    /// as CONTRACT §2 says.
    @Test(
        arguments: [
            ("sandbox-invalid", 400, "invalid_grant", nil),
            ("sandbox-expired", 400, "invalid_grant", nil),
            ("sandbox-429", 429, "temporarily_unavailable", "7"),
            ("sandbox-429-json", 429, "temporarily_unavailable", "7"),
            ("sandbox-500", 502, "upstream_error", nil),
            ("sandbox-garbage", 502, "upstream_error", nil),
            ("sandbox-slow", 504, "upstream_timeout", nil),
        ] as [(String, Int, String, String?)])
    func magicValuesReachTheClientAsTheContractSays(
        value: String, status: Int, error: String, retryAfter: String?
    ) async throws {
        let sandbox = try S.sandbox()
        let (spotify, _) = try S.providers()
        let service = try Self.service(sandbox, timeoutSeconds: 0.2)
        let swap = await service.answer {
            $0.swap(F.form("code=\(value)"), provider: spotify, completion: $1)
        }.response
        #expect(swap.status.code == status)
        #expect(try F.body(swap)["error"]?.stringValue == error)
        #expect(swap.headers["Retry-After"] == retryAfter)

        let planted = "sandbox-refresh-" + value.dropFirst("sandbox-".count)
        let plantedSwap = await service.answer {
            $0.swap(F.form("code=\(planted)"), provider: spotify, completion: $1)
        }.response
        #expect(plantedSwap.status.code == 200)
        let sealed = try #require(try F.body(plantedSwap)["refresh_token"]?.stringValue)
        let refresh = await service.answer {
            $0.refresh(
                F.form("refresh_token=\(sealed)", path: "/v1/refresh"), provider: spotify,
                completion: $1)
        }.response
        #expect(refresh.status.code == status)
        #expect(try F.body(refresh)["error"]?.stringValue == error)
    }

    @Test func specialSuccessShapes() async throws {
        let sandbox = try S.sandbox()
        let (spotify, _) = try S.providers()
        let service = try Self.service(sandbox)
        let noRefresh = await service.answer {
            $0.swap(F.form("code=sandbox-no-refresh"), provider: spotify, completion: $1)
        }
        .response
        #expect(noRefresh.status.code == 200)
        #expect(try F.body(noRefresh)["refresh_token"] == nil)
        let stringExpiry = await service.answer {
            $0.swap(
                F.form("code=sandbox-string-expiry"), provider: spotify, completion: $1)
        }.response
        #expect(try F.body(stringExpiry)["expires_in"] == .number("3600"))
    }

    @Test func tokenSealedForOneProviderDoesNotRefreshAnother() async throws {
        let sandbox = try S.sandbox()
        let (spotify, linkedin) = try S.providers()
        let service = try Self.service(sandbox)
        let code = try S.code(sandbox)
        let swap = await service.answer {
            $0.swap(F.form("code=\(code)"), provider: spotify, completion: $1)
        }
        .response
        let sealed = try #require(try F.body(swap)["refresh_token"]?.stringValue)
        let response = await service.answer {
            $0.refresh(F.form("refresh_token=\(sealed)"), provider: linkedin, completion: $1)
        }
        .response
        #expect(response.status.code == 400)
        #expect(try F.body(response)["error"]?.stringValue == "invalid_grant")
    }
}
