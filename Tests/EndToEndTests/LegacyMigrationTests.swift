import Foundation
import TestSupport
import Testing

/// Migration from other swap services (CONTRACT §9) through the real binary, with tokens
/// made by the real algorithms (Fixtures/legacy_token.py: `openssl enc`, Python
/// `cryptography`) and the stub provider behind tokenswap.
@Suite(.serialized, .resourceClass(.processes)) struct LegacyMigrationTests {
    static let formats = [
        "ruby-encrypted-strings", "node-create-cipher-ctr", "node-create-cipher-cbc",
        "spotifyapiserver-gcm", "cryptojs-aes",
    ]
    static var tokens: [String: Any] {
        ["access_token": "at-legacy", "token_type": "Bearer", "expires_in": 3600]
    }

    /// A token of `format` under `secret` holding `plaintext`, as the old service made it.
    static func legacyToken(_ format: String, secret: String, plaintext: String) async throws
        -> String
    {
        try await offPool {
            let result = try ChildProcess.run(
                "python3", [Fixture.path("legacy_token.py"), format, secret, plaintext])
            guard case .exited(0) = result.status, !result.stdout.isEmpty else {
                throw EndToEndFailure("legacy_token.py \(format) failed: \(result.stderr)")
            }
            return result.stdout
        }
    }

    /// A directory of secret files, one per format, and the `_LEGACY` value naming them.
    struct SecretFiles {
        let directory: URL
        let secrets: [String: String]

        init(formats: [String], secret: (String) -> String) throws {
            directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("tokenswap-legacy-\(Deployment.random(10))")
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true)
            var secrets: [String: String] = [:]
            for format in formats {
                let value = secret(format)
                secrets[format] = value
                // A trailing newline, as `echo secret > file` leaves; it is not part of it.
                try (value + "\n").write(
                    to: directory.appendingPathComponent(format), atomically: true,
                    encoding: .utf8)
                // Readable by the service's user only, as deployed (`check-config` warns
                // otherwise).
                try FileManager.default.setAttributes(
                    [.posixPermissions: 0o600],
                    ofItemAtPath: directory.appendingPathComponent(format).path)
            }
            self.secrets = secrets
        }

        func setting(_ formats: [String]) -> String {
            formats.map { "\($0):\(directory.appendingPathComponent($0).path)" }
                .joined(separator: ",")
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    /// The form body with the token sent without percent-encoding, as clients that build
    /// the body by hand do: the server's form decoding turns each `+` into a space.
    static func unescapedRefresh(_ token: String, port: UInt16) async throws -> Exchange.Answer {
        try await Exchange.request(
            "POST", "/v1/refresh", port: port,
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "refresh_token=\(token)")
    }

    @Test func everyFormatRefreshesAndComesBackSealedNatively() async throws {
        let files = try SecretFiles(formats: Self.formats) { _ in "old-" + Deployment.random(20) }
        defer { files.remove() }
        let deployment = Deployment()
        let stub = try await ProviderStub.start()
        try await stub.answerTokens(Self.tokens)
        let server = try await TokenSwapProcess.serve(
            environment: deployment.environment(
                tokenURL: stub.tokenURL(), keys: Deployment.newKey("k1"),
                // Replay off (CONTRACT §12): a damaged variant equal to the token as made
                // would be a repeat, and this test counts each variant's provider call.
                extra: [
                    "TOKENSWAP_SPOTIFY_LEGACY": files.setting(Self.formats),
                    "TOKENSWAP_REFRESH_REPLAY_SECONDS": "0",
                ]))
        var raws: [String] = []
        var legacyTokens: [String] = []
        var sealedTokens: [String] = []
        for format in Self.formats {
            let raw = "AQ" + Deployment.random(60) + "-_" + Deployment.random(40)
            raws.append(raw)
            let token = try await Self.legacyToken(
                format, secret: try #require(files.secrets[format]), plaintext: raw)
            legacyTokens.append(token)
            // As made, and damaged the known ways on the way to tokenswap.
            let asMade = try await Exchange.form(
                "/v1/refresh", port: server.port, [("refresh_token", token)])
            let newlinesLost = try await Exchange.form(
                "/v1/refresh", port: server.port,
                [("refresh_token", token.filter { $0 != "\n" })])
            let literalNewlines = try await Exchange.form(
                "/v1/refresh", port: server.port,
                [("refresh_token", token.replacingOccurrences(of: "\n", with: "\\n"))])
            let plusAsSpace = try await Self.unescapedRefresh(
                token.filter { $0 != "\n" }, port: server.port)
            let variants = [
                ("as made", asMade), ("newlines lost", newlinesLost),
                ("literal \\n", literalNewlines), ("+ as space", plusAsSpace),
            ]
            for (variant, answer) in variants {
                #expect(answer.status == 200, "\(format), \(variant): \(answer.status)")
                #expect(answer.string("access_token") == "at-legacy")
                // Sealed natively: base64url, not the legacy token.
                let sealed = try #require(answer.string("refresh_token"))
                #expect(sealed != token && !sealed.contains("+") && !sealed.contains("/"))
                sealedTokens.append(sealed)
            }
            // The client's next refresh uses the native form; it comes back unchanged.
            let native = try await Exchange.form(
                "/v1/refresh", port: server.port, [("refresh_token", sealedTokens.last ?? "")])
            #expect(native.status == 200)
            #expect(native.string("refresh_token") == sealedTokens.last)
        }

        // The provider saw each raw token, five times (four legacy, one native).
        let received = try await stub.received()
        #expect(
            received.map { $0.form["refresh_token"] ?? "" }
                == raws.flatMap { Array(repeating: $0, count: 5) })
        let metrics = try await OperationsTests.scrape(server.port)
        for format in Self.formats {
            #expect(
                metrics.contains(
                    #"tokenswap_legacy_tokens_opened_total{provider="spotify",format="\#(format)"} 4"#
                ),
                "\(format)")
        }
        #expect(try await server.stop() == 0)
        expectNoSecrets(
            in: [server.output, stub.errorOutput],
            [deployment.clientSecret] + Array(files.secrets.values) + raws + legacyTokens
                + sealedTokens)
    }

    @Test func wrongSecretsFormatsAndDamageAreInvalidGrantWithoutAnUpstreamCall() async throws {
        let files = try SecretFiles(formats: Self.formats) { _ in "old-" + Deployment.random(20) }
        defer { files.remove() }
        let deployment = Deployment()
        let stub = try await ProviderStub.start()
        try await stub.answerTokens(Self.tokens)
        // Every format configured; and a second server that knows only the CTR format.
        // The first takes more failed legacy opens than TOKENSWAP_LEGACY_FAILURE_LIMIT's
        // default allows (LegacyProbingTests tests the limit), so it has none.
        let everyFormat = try await TokenSwapProcess.serve(
            environment: deployment.environment(
                tokenURL: stub.tokenURL(), keys: Deployment.newKey("k1"),
                extra: [
                    "TOKENSWAP_SPOTIFY_LEGACY": files.setting(Self.formats),
                    "TOKENSWAP_LEGACY_FAILURE_LIMIT": "0",
                ]))
        let ctrOnly = try await TokenSwapProcess.serve(
            environment: deployment.environment(
                tokenURL: stub.tokenURL(), keys: Deployment.newKey("k1"),
                extra: ["TOKENSWAP_SPOTIFY_LEGACY": files.setting(["node-create-cipher-ctr"])]))
        let ctrSecret = try #require(files.secrets["node-create-cipher-ctr"])
        var sent: [String] = []
        var goodTokens: [String] = []
        for format in Self.formats {
            let raw = "AQ" + Deployment.random(90)
            let secret = try #require(files.secrets[format])
            let good = try await Self.legacyToken(format, secret: secret, plaintext: raw)
            goodTokens.append(good)
            let wrongSecret = try await Self.legacyToken(
                format, secret: secret + "x", plaintext: raw)
            // One character of data cut off (padding is optional, so cut past it).
            let trimmed = good.trimmingCharacters(in: CharacterSet.newlines.union(["="]))
            let truncated = String(trimmed.dropLast())
            var cases = [(wrongSecret, everyFormat), (truncated, everyFormat)]
            if format != "node-create-cipher-ctr" {
                // Another format's token under the very secret the server knows.
                cases.append(
                    (try await Self.legacyToken(format, secret: ctrSecret, plaintext: raw), ctrOnly)
                )
            }
            for (token, server) in cases {
                let answer = try await Exchange.form(
                    "/v1/refresh", port: server.port, [("refresh_token", token)])
                #expect(answer.status == 400, "\(format)")
                #expect(answer.error == "invalid_grant", "\(format)")
                sent.append(token)
            }
        }
        // The provider was never called.
        #expect(try await stub.received().isEmpty)
        // While the same servers do open the undamaged tokens (the control).
        for good in goodTokens {
            let answer = try await Exchange.form(
                "/v1/refresh", port: everyFormat.port, [("refresh_token", good)])
            #expect(answer.status == 200)
        }
        #expect(try await stub.received().count == goodTokens.count)
        let metrics = try await OperationsTests.scrape(ctrOnly.port)
        #expect(!metrics.contains("tokenswap_legacy_tokens_opened_total{"))
        #expect(try await everyFormat.stop() == 0)
        #expect(try await ctrOnly.stop() == 0)
        expectNoSecrets(
            in: [everyFormat.output, ctrOnly.output, stub.errorOutput],
            Array(files.secrets.values) + sent + goodTokens)
    }

    /// `check-config` warns on the secret Spotify's example shipped, and refuses a bad
    /// `_LEGACY` entry naming the variable, never the secret.
    @Test func checkConfigWarnsOnThePublishedSecretAndRefusesBadEntries() async throws {
        let published = "cFJLyifeUJUBFWdHzVbykfDmPHtLKLGzViHW9aHGmyTLD8hGXC"
        let files = try SecretFiles(formats: ["ruby-encrypted-strings", "cryptojs-aes"]) {
            $0 == "ruby-encrypted-strings" ? published : "own-" + Deployment.random(20)
        }
        defer { files.remove() }
        let deployment = Deployment()
        let base = deployment.environment(
            tokenURL: "https://accounts.example/api/token", keys: Deployment.newKey("k1"))
        func check(_ legacy: String) async throws -> (status: Int32, stdout: String, stderr: String)
        {
            try await TokenSwapProcess.run(
                ["check-config"],
                environment: base.merging(["TOKENSWAP_SPOTIFY_LEGACY": legacy]) { $1 })
        }

        let warned = try await check(files.setting(["ruby-encrypted-strings", "cryptojs-aes"]))
        #expect(warned.status == 0)
        #expect(warned.stdout.hasPrefix("configuration OK"))
        #expect(
            warned.stderr.contains(
                "warning: TOKENSWAP_SPOTIFY_LEGACY: the ruby-encrypted-strings secret is the one Spotify's"
            ))
        let clean = try await check(files.setting(["cryptojs-aes"]))
        #expect(clean.status == 0)
        #expect(clean.stderr.isEmpty)

        let emptyFile = files.directory.appendingPathComponent("empty")
        try "\n".write(to: emptyFile, atomically: true, encoding: .utf8)
        let cryptoJS = files.directory.appendingPathComponent("cryptojs-aes").path
        for bad in [
            "rot13:\(cryptoJS)", "cryptojs-aes", "cryptojs-aes:/nonexistent/secret",
            "cryptojs-aes:\(emptyFile.path)",
        ] {
            let refused = try await check(bad)
            #expect(refused.status == 2, "\(bad)")
            #expect(
                refused.stderr.hasPrefix("tokenswap: TOKENSWAP_SPOTIFY_LEGACY: expected "), "\(bad)"
            )
        }
        let outputs = [warned.stdout, warned.stderr, clean.stdout, clean.stderr]
        expectNoSecrets(in: outputs, Array(files.secrets.values) + [deployment.clientSecret])
    }
}
