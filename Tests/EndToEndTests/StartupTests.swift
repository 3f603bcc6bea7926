import Foundation
import Testing

/// Start-up: a bad setting stops `serve` with one line on stderr naming it (never the
/// secret), a non-zero status and nothing listening; `check-config` exits 0 on a valid
/// configuration.
// Serialized: each test starts processes; the whole test run shares a 2-core machine with
// timing-sensitive suites, so the cases of a table go one after another, not all at once.
@Suite(.serialized, .resourceClass(.processes)) struct StartupTests {
    static let secret = "secret-startup-" + Deployment.random(16)
    static let key = Deployment.newKey("s1")

    static var valid: [String: String] {
        [
            "TOKENSWAP_CLIENT_ID": "cid", "TOKENSWAP_CLIENT_SECRET": secret,
            "TOKENSWAP_REDIRECT_URI": "myapp://cb", "TOKENSWAP_ENCRYPTION_KEYS": key,
        ]
    }

    /// (variable expected in the line, the change to a valid environment)
    static let badSettings: [(String, [String: String?])] = [
        ("TOKENSWAP_CLIENT_SECRET", ["TOKENSWAP_CLIENT_SECRET": nil]),
        ("TOKENSWAP_CLIENT_ID", ["TOKENSWAP_CLIENT_ID": nil]),
        ("TOKENSWAP_REDIRECT_URI", ["TOKENSWAP_REDIRECT_URI": nil]),
        ("TOKENSWAP_ENCRYPTION_KEYS", ["TOKENSWAP_ENCRYPTION_KEYS": nil]),
        // A key of the wrong length: the line names the variable, not the key.
        ("TOKENSWAP_ENCRYPTION_KEYS", ["TOKENSWAP_ENCRYPTION_KEYS": String(key.dropLast(3))]),
        ("TOKENSWAP_PORT", ["TOKENSWAP_PORT": "eighty"]),
        ("TOKENSWAP_TOKEN_URL", ["TOKENSWAP_TOKEN_URL": "ftp://x"]),
        ("TOKENSWAP_PROVIDERS", ["TOKENSWAP_PROVIDERS": "Not_A_Name"]),
        (
            "TOKENSWAP_ACME_AUTH",
            [
                "TOKENSWAP_PROVIDERS": "spotify,acme", "TOKENSWAP_ACME_AUTH": "magic",
                "TOKENSWAP_ACME_CLIENT_ID": "a", "TOKENSWAP_ACME_CLIENT_SECRET": secret,
                "TOKENSWAP_ACME_REDIRECT_URI": "myapp://a",
                "TOKENSWAP_ACME_TOKEN_URL": "https://acme.example/token",
            ]
        ),
        ("TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS", ["TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS": "-1"]),
        ("TOKENSWAP_CA_FILE", ["TOKENSWAP_CA_FILE": "/nonexistent/ca.pem"]),
        ("TOKENSWAP_LOG_LEVEL", ["TOKENSWAP_LOG_LEVEL": "loud"]),
        // Numbers outside their documented range: 1e19 was a SIGILL in check-config
        // (Int(_:) overflow), 1e-19 and 1e-300 crashed later in timer and Retry-After
        // arithmetic.
        ("TOKENSWAP_RATE_LIMIT", ["TOKENSWAP_RATE_LIMIT": "1e19"]),
        ("TOKENSWAP_RATE_LIMIT", ["TOKENSWAP_RATE_LIMIT": "1e-19"]),
        ("TOKENSWAP_RATE_LIMIT_BURST", ["TOKENSWAP_RATE_LIMIT_BURST": "100000000000"]),
        ("TOKENSWAP_RATE_LIMIT_IPV6_PREFIX", ["TOKENSWAP_RATE_LIMIT_IPV6_PREFIX": "0"]),
        (
            "TOKENSWAP_MAX_BODY_BYTES_IN_FLIGHT",
            ["TOKENSWAP_MAX_BODY_BYTES_IN_FLIGHT": "99999999999999999999"]
        ),
        ("TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS", ["TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS": "1e-300"]),
    ]

    /// `serve`'s own numeric options: out of range (huge, infinite, NaN, negative) is one
    /// line naming the option and a non-zero exit, before anything listens.
    static let badOptions: [(String, [String])] = [
        ("--drain-seconds", ["--drain-seconds", "1e300"]),
        ("--drain-seconds", ["--drain-seconds", "inf"]),
        ("--drain-seconds", ["--drain-seconds", "nan"]),
        ("--drain-seconds", ["--drain-seconds=-1"]),
        ("--unready-seconds", ["--unready-seconds", "1e19"]),
        ("--unready-seconds", ["--unready-seconds", "inf"]),
    ]

    @Test(arguments: badOptions.indices)
    func badOptionStopsStartUp(_ index: Int) async throws {
        let (option, arguments) = Self.badOptions[index]
        let result = try await TokenSwapProcess.run(
            ["serve", "--host", "127.0.0.1", "--port", "0"] + arguments, environment: Self.valid)
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(result.stderr)")
        #expect(lines.first?.contains(option) == true, "\(result.stderr)")
        #expect(!result.stdout.contains("listening"))
    }

    @Test(arguments: badSettings.indices)
    func badSettingStopsStartUp(_ index: Int) async throws {
        let (variable, change) = Self.badSettings[index]
        var environment = Self.valid
        for (name, value) in change { environment[name] = value }
        let result = try await TokenSwapProcess.run(
            ["serve", "--host", "127.0.0.1", "--port", "0"], environment: environment)
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(result.stderr)")
        #expect(lines.first?.contains(variable) == true, "\(result.stderr)")
        #expect(!result.stdout.contains("listening"))
        expectNoSecrets(
            in: [result.stdout, result.stderr],
            [Self.secret] + Deployment.keyMaterial(Self.key)
                + Deployment.keyMaterial(environment["TOKENSWAP_ENCRYPTION_KEYS"] ?? ""))

        let check = try await TokenSwapProcess.run(["check-config"], environment: environment)
        #expect(check.status != 0)
        #expect(check.stderr.contains(variable))
        expectNoSecrets(
            in: [check.stdout, check.stderr], [Self.secret] + Deployment.keyMaterial(Self.key))
    }

    @Test func checkConfigAcceptsAValidConfiguration() async throws {
        let result = try await TokenSwapProcess.run(["check-config"], environment: Self.valid)
        #expect(result.status == 0)
        expectNoSecrets(
            in: [result.stdout, result.stderr], [Self.secret] + Deployment.keyMaterial(Self.key))
    }

    /// --port and --host win over the environment; the environment wins over the file.
    @Test func precedenceFlagsOverEnvironmentOverFile() async throws {
        let file = NSTemporaryDirectory() + "tokenswap-e2e-\(UUID().uuidString).json"
        let json = #"{"port": 1, "log_level": "error", "client_id": "from-file"}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        var environment = Self.valid
        environment["TOKENSWAP_PORT"] = "2"
        environment["TOKENSWAP_LOG_LEVEL"] = "info"
        // --port 0 (in serve) beats TOKENSWAP_PORT=2 beats the file's 1.
        let server = try await TokenSwapProcess.serve(["--config", file], environment: environment)
        #expect(server.port > 2)
        _ = try await Exchange.request("GET", "/healthz", port: server.port)
        #expect(try await server.stop() == 0)
        // info from the environment, not error from the file: the request was logged.
        #expect(server.standardOutput.contains("path=/healthz"))
        expectNoSecrets(in: [server.output], [Self.secret] + Deployment.keyMaterial(Self.key))
    }
}
