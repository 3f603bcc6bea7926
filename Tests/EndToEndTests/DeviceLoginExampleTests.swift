import Foundation
import TestSupport
import Testing
import TokenSwapClient

/// The client kit's example program, `tokenswap-device-login`, as a user runs it against
/// `tokenswap serve --sandbox`.
@Suite(.serialized, .resourceClass(.processes)) struct DeviceLoginExampleTests {
    /// Built next to this test bundle by `swift build --build-tests` (also when
    /// `TOKENSWAP_BINARY` points the server elsewhere, e.g. at a release build).
    static func binary() throws -> String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let path = bundle.appendingPathComponent("tokenswap-device-login").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw EndToEndFailure("no tokenswap-device-login at \(path); build it first")
        }
        return path
    }

    /// Runs the example to its end with a clean environment.
    static func run(_ arguments: [String]) async throws
        -> (status: ChildProcess.ExitStatus, stdout: String, stderr: String)
    {
        let binary = try binary()
        return try await offPool {
            try ChildProcess.run(
                binary, arguments, environment: TokenSwapProcess.clean([:]), timeoutSeconds: 60)
        }
    }

    /// The example signed in on an earlier run: a 0600 file, in a directory of its own,
    /// holding the refresh token of a sandbox swap.
    struct EarlierSignIn {
        let directory: String
        let store: FileCredentialStore
        let backend: TokenSwapBackend
        let swapped: TokenAnswer
        let planted: RedactedToken

        init(_ server: TokenSwapProcess) async throws {
            directory = NSTemporaryDirectory() + "tokenswap-device-login-\(UUID().uuidString)"
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: false)
            store = FileCredentialStore(path: directory + "/session")
            let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
            backend = TokenSwapBackend(endpoints: try TokenSwapEndpoints(baseURL: base))
            swapped = try await backend.swap(code: SandboxFlowTests.authorize(server.port))
            planted = try #require(swapped.refreshToken)
            try await store.save(planted)
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Signed in from an earlier run (the 0600 file holds a refresh token): it calls the
    /// API with `data(for:)`, refreshing whenever the access token is within the
    /// skew of its expiry (here: always), and the file follows every rotation.
    @Test func callsTheAPIWithFreshTokensAndStoresEachRotation() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let base = "http://127.0.0.1:\(server.port)"
        let earlier = try await EarlierSignIn(server)
        defer { earlier.remove() }
        let (store, backend, swapped, planted) = (
            earlier.store, earlier.backend, earlier.swapped, earlier.planted
        )
        let run = try await Self.run([
            "--base-url", base, "--store", store.path, "--api-url", base + "/healthz",
            "--calls", "2", "--interval-seconds", "0", "--refresh-skew-seconds", "3600",
        ])
        #expect(run.status == .exited(0), "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Signed in (refresh token from \(store.path)).")
        #expect(lines.contains { $0.hasPrefix("call 1: HTTP 200, ") })
        #expect(lines.contains { $0.hasPrefix("call 2: HTTP 200, ") })
        let rotated = try #require(try await store.load())
        #expect(rotated != planted)
        // The stored token is the live one: the sandbox revoked each one it rotated away.
        // It is bound to the key the example keeps beside the file (CONTRACT §13).
        let key = try #require(try await store.dpopKeyStore?.load())
        expectQuietly(
            try await backend.refresh(rotated, dpopKey: key).accessToken.revealed.hasPrefix(
                "sba-"),
            "the stored token refreshes")
        #expect(try await server.stop() == 0)
        #expect(TokenSwapClientSandboxTests.refreshes(server, status: 200) == 3)
        expectNoSecrets(
            in: [run.stdout, run.stderr, server.standardOutput],
            [planted.revealed, rotated.revealed, swapped.accessToken.revealed])
    }

    /// Without `--api-url` each call introspects the token (CONTRACT §8); `--sign-out`
    /// revokes the tokens and removes the file.
    @Test func introspectsAndSignsOutWithRevocation() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let earlier = try await EarlierSignIn(server)
        defer { earlier.remove() }
        let store = earlier.store
        let run = try await Self.run([
            "--base-url", "http://127.0.0.1:\(server.port)", "--store", store.path, "--calls", "1",
            "--sign-out",
        ])
        #expect(run.status == .exited(0), "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("call 1: the access token is active"))
        #expect(lines.last == "Signed out (revocation: revoked).")
        #expect(try await store.load() == nil)
        #expect(try await server.stop() == 0)
        #expect(server.standardOutput.contains("path=/v1/revoke "))
        expectNoSecrets(
            in: [run.stdout, run.stderr, server.standardOutput],
            [earlier.planted.revealed, earlier.swapped.accessToken.revealed])
    }

    /// Issue 18 item 5: `--interval-seconds inf` became `Duration.seconds(.infinity)`, a
    /// trap; every such number is a usage error now.
    @Test(arguments: ["inf", "nan", "1e300", "-1"])
    func anIntervalNoWaitCanHoldIsAUsageError(interval: String) async throws {
        let run = try await Self.run([
            "--base-url", "http://127.0.0.1:9", "--store", "/nonexistent/x", "--calls", "2",
            "--interval-seconds", interval,
        ])
        #expect(run.status == .exited(64), "\(run.stderr)")
        #expect(run.stderr.contains("--interval-seconds"))
    }

    @Test func aBadBaseURLIsACleanError() async throws {
        let run = try await Self.run(["--base-url", "ftp://x", "--store", "/nonexistent/x"])
        #expect(run.status == .exited(1))
        #expect(run.stderr.contains("invalid configuration: base URL must be http or https"))
    }
}
