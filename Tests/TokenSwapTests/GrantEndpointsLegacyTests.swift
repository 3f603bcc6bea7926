import HTTPClient
import HTTPCore
import Sealing
import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

/// CONTRACT §9's rules for legacy tokens at the handlers: decoders for refresh tokens
/// only, one answer for every failure, a per-client limit on failed opens, and the opened
/// counter counting refreshes that answered 200. Tokens are `node-create-cipher-ctr`, made
/// here the way an attacker makes them: one fixed keystream, XORed with a chosen plaintext.
@Suite struct GrantEndpointsLegacyTests {
    typealias F = GrantEndpointsFixtures
    static let legacySecret = "old-service-s3cret"
    static let client = "192.0.2.7"

    /// A `node-create-cipher-ctr` token of `plaintext` under `secret`: the keystream is
    /// what the decoder makes of zero bytes, and the ciphertext is the plaintext XOR it.
    static func ctrToken(_ plaintext: String, secret: String = legacySecret) throws -> String {
        let format = LegacyFormat.nodeCreateCipherCTR
        let bytes = Array(plaintext.utf8)
        let keystream = try #require(
            format.decrypt(
                String(repeating: "00", count: bytes.count),
                keyMaterial: format.keyMaterial(secret: Array(secret.utf8))))
        let hexDigits = Array("0123456789abcdef")
        return String(
            zip(bytes, keystream).flatMap { plain, key in
                let byte = plain ^ key
                return [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0f)]]
            })
    }

    /// A generic provider (any VSCHAR plaintext of 8 or more passes the shape check) with
    /// the CTR decoder and a device endpoint.
    static func provider() throws -> Provider {
        Provider(
            name: "acme", preset: .generic,
            tokenURL: try UpstreamURL("https://accounts.example/api/token"),
            clientID: "client-1", clientSecret: Secret(F.secret), authMethod: .clientSecretBasic,
            redirectURI: "myapp://callback",
            device: ProviderDeviceSettings(
                url: try UpstreamURL("https://accounts.example/device/code"), clientAuth: .none),
            legacyDecoders: [
                LegacyDecoder(format: .nodeCreateCipherCTR, secret: Secret(legacySecret))
            ])
    }

    /// `replaySeconds` 0 by default: these tests repeat one token to count the allowance
    /// against the provider's answers, which the replay window (CONTRACT §12) would answer
    /// itself (`refreshReplayGivesTheAllowanceBackOnlyForASuccess` turns it on).
    static func service(
        _ upstream: RecordingUpstream, failuresPerMinute: Double = 0,
        metrics: ServiceMetrics = ServiceMetrics(), replaySeconds: Int = 0
    ) throws -> GrantEndpoints {
        GrantEndpoints(
            keyRing: try KeyRing(parsing: F.newKey), transport: upstream,
            upstreamTimeoutSeconds: 2, logger: LogCapture().logger, metrics: metrics,
            legacyFailureLimit: ClientRateLimit(
                perMinute: failuresPerMinute, trustedProxies: TrustedProxies([]),
                ipv6PrefixLength: ConfigurationDefaults.rateLimitIPv6PrefixLength),
            refreshReplaySeconds: replaySeconds)
    }

    static func refresh(_ token: String, from client: String = client) -> HTTPRequest {
        var request = F.form("refresh_token=\(token)", path: "/v1/refresh")
        request.remoteAddress = client
        return request
    }

    /// What a token that opens neither natively nor by a decoder is answered.
    static func doesNotOpen(_ provider: Provider) async throws -> HTTPResponse {
        let answer = try await service(RecordingUpstream()).answer {
            $0.refresh(
                refresh("not-a-token-at-all"), provider: provider, completion: $1)
        }.response
        #expect(answer.status.code == 400)
        #expect(try F.body(answer)["error"]?.stringValue == "invalid_grant")
        return answer
    }

    static let tokens = RecordingUpstream.json(
        200, #"{"access_token":"at-1","token_type":"Bearer","expires_in":3600}"#)

    @Test func theHelperMakesTheTokensNodeMade() throws {
        // LegacyFormatTests' vector, made by `openssl enc -aes-256-ctr -md md5 -nosalt`.
        #expect(
            try Self.ctrToken(LegacyFormatTests.plaintext, secret: LegacyFormatTests.secret)
                == LegacyFormatTests.vectors[.nodeCreateCipherCTR])
    }

    /// Issue 18 item 1: a device code that did not open natively was tried against the
    /// legacy refresh-token decoders, and a forged envelope's numbers reached unchecked
    /// arithmetic. A sane forged envelope polled the provider with the attacker's code.
    @Test func aForgedLegacyEnvelopeNeverOpensAsADeviceCode() async throws {
        let provider = try Self.provider()
        let upstream = RecordingUpstream()
        let service = try Self.service(upstream)
        for text in [
            #"{"d":"x","e":-9223372036854775808,"i":9223372036854775807}"#,
            #"{"d":"attacker-code","e":4102444800,"i":5}"#,
        ] {
            let forged = try Self.ctrToken(text)
            // The decoder itself opens it: only the kind keeps it out.
            #expect(service.legacy.open(forged, for: provider) != nil)
            #expect(throws: GrantError.unopenableDeviceCode) {
                try service.devicePollGrant.openDeviceCode(forged, for: provider)
            }
        }
        let sane = try Self.ctrToken(#"{"d":"attacker-code","e":4102444800,"i":5}"#)
        var poll = F.form("device_code=\(sane)", path: "/v1/acme/device/token")
        poll.remoteAddress = Self.client
        let answer = await service.deviceToken(poll, provider: provider).response
        #expect(answer.status.code == 400)
        #expect(try F.body(answer)["error"]?.stringValue == "invalid_grant")
        #expect(upstream.requests.isEmpty)
    }

    /// Issue 18 item 2: the provider's own body for a legacy-opened token told an attacker
    /// that the plaintext passed the shape check (8,193 requests recovered the keystream).
    @Test func everyRefusalOfALegacyTokenIsTheAnswerOfATokenThatDoesNotOpen() async throws {
        let provider = try Self.provider()
        let reference = try await Self.doesNotOpen(provider)
        let token = try Self.ctrToken("legacy-refresh-token-0001")
        let refusals: [RecordingUpstream.Answer] = [
            RecordingUpstream.json(
                400, #"{"error":"invalid_grant","error_description":"Refresh token revoked"}"#),
            RecordingUpstream.json(400, #"{"error":"invalid_request"}"#),
            RecordingUpstream.json(401, #"{"error":"invalid_client"}"#),
            RecordingUpstream.json(403, "<html>forbidden</html>"),
            RecordingUpstream.json(404, ""),
            // GitHub answers 200 with an error.
            RecordingUpstream.json(200, #"{"error":"bad_refresh_token"}"#),
        ]
        for refusal in refusals {
            let upstream = RecordingUpstream(refusal)
            let answer = try await Self.service(upstream).answer {
                $0.refresh(
                    Self.refresh(token), provider: provider, completion: $1)
            }.response
            #expect(upstream.requests.count == 1)
            #expect(answer.status == reference.status)
            #expect(answer.headers == reference.headers)
            #expect(
                answer.body == reference.body, "\(String(decoding: answer.body, as: UTF8.self))")
        }
        // Transient failures stay transient (CONTRACT §2): the client retries them.
        let transient: [(RecordingUpstream.Answer, Int)] = [
            (
                RecordingUpstream.json(429, #"{"error":"slow"}"#, headers: [("Retry-After", "7")]),
                429
            ),
            (RecordingUpstream.json(503, "down"), 502),
            (.failure(.timeout(.exchange)), 504),
        ]
        for (failure, status) in transient {
            let answer = try await Self.service(RecordingUpstream(failure)).answer {
                $0.refresh(
                    Self.refresh(token), provider: provider, completion: $1)
            }.response
            #expect(answer.status.code == status)
        }
        // A natively sealed token still gets the provider's body verbatim.
        let native = try F.seal("raw-native", keys: F.newKey, provider: provider)
        let body = #"{"error":"invalid_grant","error_description":"Refresh token revoked"}"#
        let answer = try await Self.service(RecordingUpstream(RecordingUpstream.json(400, body)))
            .answer { $0.refresh(Self.refresh(native), provider: provider, completion: $1) }
            .response
        #expect(answer.body == Array(body.utf8))
    }

    @Test func failedLegacyOpensAreLimitedPerClientBeforeDecoding() async throws {
        let provider = try Self.provider()
        let upstream = RecordingUpstream(
            RecordingUpstream.json(400, #"{"error":"invalid_grant"}"#),
            RecordingUpstream.json(400, #"{"error":"invalid_grant"}"#), Self.tokens, Self.tokens)
        let service = try Self.service(upstream, failuresPerMinute: 3)
        let good = try Self.ctrToken("legacy-refresh-token-0002")
        // Three failures: one that opens nowhere, two the provider refuses.
        for token in ["garbage-token", good, good] {
            let answer = await service.answer {
                $0.refresh(Self.refresh(token), provider: provider, completion: $1)
            }.response
            #expect(answer.status.code == 400)
        }
        #expect(upstream.requests.count == 2)
        // Spent: even a good legacy token is 429, before decoding (no provider call).
        let limited = await service.answer {
            $0.refresh(Self.refresh(good), provider: provider, completion: $1)
        }.response
        #expect(limited.status.code == 429)
        #expect(try F.body(limited)["error"]?.stringValue == "rate_limited")
        #expect(limited.headers["Retry-After"].flatMap { Int($0) }.map { $0 >= 1 } == true)
        #expect(upstream.requests.count == 2)
        // A natively sealed token from the same client is never affected.
        let native = try F.seal("raw-native", keys: F.newKey, provider: provider)
        let nativeAnswer = await service.answer {
            $0.refresh(Self.refresh(native), provider: provider, completion: $1)
        }
        .response
        #expect(nativeAnswer.status.code == 200)
        // Another client has its own allowance.
        let other = await service.answer {
            $0.refresh(Self.refresh(good, from: "192.0.2.8"), provider: provider, completion: $1)
        }
        .response
        #expect(other.status.code == 200)
    }

    /// CONTRACT §15: the limit keys IPv6 clients by prefix (a /64 by default), like every
    /// other per-client limit.
    @Test func ipv6ClientsShareTheirPrefixAllowance() async throws {
        let provider = try Self.provider()
        let service = try Self.service(RecordingUpstream(), failuresPerMinute: 2)
        for host in 1...2 {
            let answer = await service.answer {
                $0.refresh(
                    Self.refresh("garbage-token", from: "2001:db8:1:2::\(host)"),
                    provider: provider, completion: $1)
            }.response
            #expect(answer.status.code == 400)
        }
        let rotated = await service.answer {
            $0.refresh(
                Self.refresh("garbage-token", from: "2001:db8:1:2:ffff::3"), provider: provider,
                completion: $1)
        }.response
        #expect(rotated.status.code == 429)
        let neighbour = await service.answer {
            $0.refresh(
                Self.refresh("garbage-token", from: "2001:db8:1:3::1"), provider: provider,
                completion: $1)
        }.response
        #expect(neighbour.status.code == 400)
    }

    @Test func refreshedAndTransientlyFailedLegacyTokensGiveTheAllowanceBack() async throws {
        let provider = try Self.provider()
        let upstream = RecordingUpstream(
            Self.tokens, Self.tokens, Self.tokens, Self.tokens, RecordingUpstream.json(503, "x"),
            RecordingUpstream.json(503, "x"), RecordingUpstream.json(503, "x"))
        let service = try Self.service(upstream, failuresPerMinute: 2)
        let good = try Self.ctrToken("legacy-refresh-token-0003")
        for status in [200, 200, 200, 200, 502, 502, 502] {
            let answer = await service.answer {
                $0.refresh(Self.refresh(good), provider: provider, completion: $1)
            }.response
            #expect(answer.status.code == status)
        }
        for status in [400, 400, 429] {
            let answer = await service.answer {
                $0.refresh(Self.refresh("garbage-token"), provider: provider, completion: $1)
            }
            .response
            #expect(answer.status.code == status)
        }
    }

    @Test func theLimitCanBeTurnedOff() async throws {
        let provider = try Self.provider()
        let service = try Self.service(RecordingUpstream())
        #expect(service.legacy.failureLimit == nil)
        for _ in 0..<50 {
            let answer = await service.answer {
                $0.refresh(Self.refresh("garbage-token"), provider: provider, completion: $1)
            }
            .response
            #expect(answer.status.code == 400)
        }
    }

    /// The counter shows when the legacy settings can go: it counts legacy tokens that
    /// refreshed, not ones a decoder merely opened (`openLegacy` counts nothing).
    @Test func theOpenedCounterCountsOnlyRefreshesThatAnswered200() async throws {
        let provider = try Self.provider()
        let metrics = ServiceMetrics()
        let upstream = RecordingUpstream(
            RecordingUpstream.json(400, #"{"error":"invalid_grant"}"#),
            RecordingUpstream.json(503, "down"), Self.tokens)
        let service = try Self.service(upstream, metrics: metrics)
        let good = try Self.ctrToken("legacy-refresh-token-0004")
        #expect(service.legacy.open(good, for: provider) != nil)
        for status in [400, 502] {
            let answer = await service.answer {
                $0.refresh(Self.refresh(good), provider: provider, completion: $1)
            }.response
            #expect(answer.status.code == status)
        }
        #expect(
            !(await ServiceMetricsTests.text(metrics)).contains(
                "tokenswap_legacy_tokens_opened_total{"))
        let refreshed = await service.answer {
            $0.refresh(Self.refresh(good), provider: provider, completion: $1)
        }.response
        #expect(refreshed.status.code == 200)
        #expect(
            (await ServiceMetricsTests.text(metrics)).contains(
                #"tokenswap_legacy_tokens_opened_total{provider="acme",format="node-create-cipher-ctr"} 1"#
            ))
    }
}
