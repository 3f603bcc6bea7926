import HTTPClient
import HTTPCore
import Synchronization
import Testing

@testable import Sealing
@testable import TokenSwap
@testable import TokenSwapFixtures

/// CONTRACT §13's binding on the grant endpoints, with proofs signed by swift-crypto: what
/// binds, what is refused (always before the provider is called), the nonce dance, the
/// modes, the metric, discovery and CORS.
@Suite struct GrantEndpointsDPoPTests {
    typealias F = GrantEndpointsFixtures
    static let now: Int64 = 1_767_225_600
    static let base = "https://tokenswap.example"
    static let tokens =
        #"{"access_token":"a2","token_type":"Bearer","expires_in":3600,"refresh_token":"raw-r"}"#
    static let refreshed = #"{"access_token":"a3","token_type":"Bearer","expires_in":3600}"#

    let maker = DPoPProofMaker()
    let provider: Provider
    let ring: KeyRing
    let serials = Serials()

    /// Numbers for fresh `jti`s.
    final class Serials: Sendable {
        private let last = Atomic(0)
        func next() -> Int { last.add(1, ordering: .relaxed).newValue }
    }

    init() throws {
        provider = try Self.deviceProvider()
        ring = try KeyRing(parsing: F.newKey)
    }

    /// The provider of these tests, with its DPoP mode (`TOKENSWAP_SPOTIFY_DPOP`).
    static func deviceProvider(dpop: DPoPMode = .optional) throws -> Provider {
        Provider(
            name: "spotify", preset: .generic,
            tokenURL: try UpstreamURL("https://accounts.example/api/token"),
            clientID: "client-1", clientSecret: Secret(F.secret), authMethod: .clientSecretBasic,
            redirectURI: "myapp://callback",
            device: ProviderDeviceSettings(
                url: try UpstreamURL("https://accounts.example/device/code"), clientAuth: .none),
            dpopMode: dpop)
    }

    func service(
        _ upstream: RecordingUpstream, nonces: Bool = false,
        metrics: ServiceMetrics = ServiceMetrics(), replaySeconds: Int = 0
    ) -> GrantEndpoints {
        let gate = DPoPGate(
            settings: DPoPSettings(maxAgeSeconds: 60, noncesRequired: nonces),
            keyRing: ring, store: MemoryStateStore(), publicURL: Self.base,
            trustedProxies: TrustedProxies([]), servesTLS: false, metrics: metrics,
            now: { Self.now })
        return GrantEndpoints(
            keyRing: ring, transport: upstream, upstreamTimeoutSeconds: 2,
            logger: LogCapture().logger, metrics: metrics, dpop: gate,
            // Most tests present one token to successive scripted answers; the replay
            // window (CONTRACT §12) would answer the repeats itself.
            refreshReplaySeconds: replaySeconds)
    }

    /// A fresh proof for `path` by `maker` (a new `jti` each time).
    func proof(_ path: String, by maker: DPoPProofMaker? = nil, nonce: String? = nil) -> String {
        let serial = serials.next()
        return (maker ?? self.maker).proof(
            claims: DPoPProofMaker.claims(
                jti: "jti-\(serial)-0123456789abcdef", htu: Self.base + path,
                iat: String(Self.now), nonce: nonce))
    }

    func request(_ body: String, path: String, proofs: [String] = []) -> HTTPRequest {
        var request = F.form(body, path: path)
        for proof in proofs { request.headers.add(name: "DPoP", value: proof) }
        return request
    }

    func refreshRequest(
        _ sealed: String, proofs: [String] = [], path: String = "/v1/spotify/refresh"
    )
        -> HTTPRequest
    {
        request("refresh_token=\(sealed)", path: path, proofs: proofs)
    }

    func sealed(_ raw: String, grant: SealedGrant?) throws -> String {
        let context = SealingContext(provider: provider.name, clientID: provider.clientID)
        guard let grant else { return try ring.seal(raw, context: context) }
        return try ring.seal(raw, grant: grant, context: context)
    }

    func opened(_ response: HTTPResponse) throws -> OpenedToken {
        let token = try #require(try F.body(response)["refresh_token"]?.stringValue)
        return try F.open(token, keys: F.newKey, provider: provider)
    }

    func bound(to maker: DPoPProofMaker) throws -> SealedGrant {
        try #require(SealedGrant.newFamily(thumbprint: maker.thumbprint, startTime: 1))
    }

    static func errorCode(_ response: HTTPResponse) throws -> String? {
        try F.body(response)["error"]?.stringValue
    }

    @Test func swapWithAProofBindsTheSealedRefreshTokenOnly() async throws {
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.tokens))
        let path = "/v1/spotify/swap"
        let response = await service(upstream).answer {
            $0.swap(
                self.request("code=c1", path: path, proofs: [self.proof(path)]),
                provider: self.provider, completion: $1)
        }.response
        #expect(response.status.code == 200)
        #expect(try opened(response).grant?.thumbprint == maker.thumbprint)
        #expect(try F.body(response)["token_type"]?.stringValue == "Bearer")
        #expect(try F.body(response)["access_token"]?.stringValue == "a2")
    }

    @Test func swapWithoutAProofBindsNothing() async throws {
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.tokens))
        let response = await service(upstream, nonces: true).answer {
            $0.swap(
                self.request("code=c1", path: "/v1/spotify/swap"), provider: self.provider,
                completion: $1)
        }.response
        #expect(response.status.code == 200)
        let grant = try #require(try opened(response).grant)
        #expect(grant.thumbprint == nil && grant.generation == 0)
        #expect(response.headers["DPoP-Nonce"] == nil)
    }

    @Test func boundTokenWithoutAProofOrWithAnotherKeysIsInvalidGrantWithoutAProviderCall()
        async throws
    {
        let metrics = ServiceMetrics()
        let upstream = RecordingUpstream()
        let service = service(upstream, metrics: metrics)
        let token = try sealed("raw-r", grant: bound(to: maker))
        let other = DPoPProofMaker()
        let path = "/v1/spotify/refresh"
        for proofs in [[], [proof(path, by: other)]] {
            let response = await service.answer {
                $0.refresh(
                    self.refreshRequest(token, proofs: proofs), provider: self.provider,
                    completion: $1)
            }.response
            #expect(response.status.code == 400)
            #expect(try Self.errorCode(response) == "invalid_grant")
        }
        #expect(upstream.requests.isEmpty)
        let text = String(decoding: await metrics.exposition(), as: UTF8.self)
        #expect(
            text.contains(
                #"tokenswap_dpop_proofs_total{provider="spotify",outcome="key_mismatch"} 2"#))
    }

    @Test func boundTokenWithItsKeyRefreshesAndStaysBoundToIt() async throws {
        let upstream = RecordingUpstream(
            RecordingUpstream.json(200, Self.refreshed),
            RecordingUpstream.json(200, #"{"access_token":"a4","refresh_token":"raw-r2"}"#))
        let service = service(upstream)
        let grant = try bound(to: maker)
        let token = try sealed("raw-r", grant: grant)
        let path = "/v1/spotify/refresh"
        let first = await service.answer {
            $0.refresh(
                self.refreshRequest(token, proofs: [self.proof(path)]), provider: self.provider,
                completion: $1)
        }.response
        #expect(first.status.code == 200)
        #expect(try opened(first).grant?.thumbprint == maker.thumbprint)
        // A rotated token comes back bound too, in the same family, one generation on.
        let second = await service.answer {
            $0.refresh(
                self.refreshRequest(token, proofs: [self.proof(path)]), provider: self.provider,
                completion: $1)
        }.response
        let rotated = try opened(second)
        #expect(rotated.plaintextString == "raw-r2")
        #expect(rotated.grant?.thumbprint == maker.thumbprint)
        #expect(rotated.grant?.familyID == grant.familyID && rotated.grant?.generation == 1)
        #expect(upstream.requests.count == 2)
    }

    /// CONTRACT §13: an app adopts DPoP without signing its users in again.
    @Test func unboundTokenAdoptsTheKeyOfItsFirstProof() async throws {
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.refreshed))
        let grant = try #require(SealedGrant.newFamily(thumbprint: nil, startTime: 7))
        let token = try sealed("raw-r", grant: grant)
        let path = "/v1/spotify/refresh"
        let response = await service(upstream).answer {
            $0.refresh(
                self.refreshRequest(token, proofs: [self.proof(path)]), provider: self.provider,
                completion: $1)
        }.response
        let answer = try opened(response)
        #expect(answer.plaintextString == "raw-r")
        #expect(answer.grant?.thumbprint == maker.thumbprint)
        #expect(answer.grant?.familyID == grant.familyID)
        #expect(answer.grant?.startTime == 7 && answer.grant?.generation == 1)
    }

    /// CONTRACT §12: the kept answer remembers the key that proved the request that made
    /// it. A token unbound when sent, refreshed with key A's proof: a repeat inside the
    /// window gets the kept answer only with A's proof; with no proof or B's it is
    /// `invalid_grant`, and nothing calls the provider again.
    @Test func theReplayWindowHandsAKeptAnswerOnlyToTheKeyThatProvedIt() async throws {
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.refreshed))
        let service = service(upstream, replaySeconds: 60)
        let token = try sealed("raw-r", grant: nil)
        let path = "/v1/spotify/refresh"
        let first = await refreshed(token, by: service, proofs: [proof(path)])
        #expect(first.status.code == 200)
        #expect(try opened(first).grant?.thumbprint == maker.thumbprint)
        for proofs in [[], [proof(path, by: DPoPProofMaker())]] {
            let repeated = await refreshed(token, by: service, proofs: proofs)
            #expect(repeated.status.code == 400)
            #expect(try Self.errorCode(repeated) == "invalid_grant")
            #expect(try F.body(repeated)["access_token"] == nil)
        }
        // The refusals were not kept: the key that proved the first still gets its answer.
        let again = await refreshed(token, by: service, proofs: [proof(path)])
        #expect(again.status.code == 200)
        #expect(try F.body(again)["access_token"] == F.body(first)["access_token"])
        #expect(upstream.requests.count == 1)
    }

    /// And an answer made without a proof is handed only to a repeat without one.
    @Test func anAnswerMadeWithoutAProofIsNotHandedToAProvedRepeat() async throws {
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.refreshed))
        let service = service(upstream, replaySeconds: 60)
        let token = try sealed("raw-r", grant: nil)
        let first = await refreshed(token, by: service)
        #expect(first.status.code == 200)
        let proved = await refreshed(token, by: service, proofs: [proof("/v1/spotify/refresh")])
        #expect(try Self.errorCode(proved) == "invalid_grant")
        #expect(await refreshed(token, by: service).body == first.body)
        #expect(upstream.requests.count == 1)
    }

    /// `POST /v1/spotify/refresh` of `token` with `proofs`, answered by `service`.
    func refreshed(_ token: String, by service: GrantEndpoints, proofs: [String] = []) async
        -> HTTPResponse
    {
        await service.answer {
            $0.refresh(
                self.refreshRequest(token, proofs: proofs), provider: self.provider,
                completion: $1)
        }.response
    }

    /// A token sealed before the current layout comes back in it (unbound without a
    /// proof), with a family.
    @Test func versionOneTokenComesBackInTheNewestVersion() async throws {
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.refreshed))
        let token = try Array("raw-r".utf8).withUnsafeBytes { value in
            try ring.seal(
                version: 1, plaintext: value,
                context: SealingContext(provider: provider.name, clientID: provider.clientID))
        }
        #expect(try F.open(token, keys: F.newKey, provider: provider).grant == nil)
        let response = await service(upstream).answer {
            $0.refresh(self.refreshRequest(token), provider: self.provider, completion: $1)
        }.response
        let answer = try opened(response)
        #expect(answer.plaintextString == "raw-r")
        #expect(answer.grant != nil && answer.grant?.thumbprint == nil)
    }

    @Test func requiredModeRefusesRequestsWithoutAValidProof() async throws {
        let provider = try Self.deviceProvider(dpop: .required)
        let upstream = RecordingUpstream()
        let service = service(upstream)
        let token = try sealed("raw-r", grant: nil)
        let swap = await service.answer {
            $0.swap(
                self.request("code=c", path: "/v1/spotify/swap"), provider: provider,
                completion: $1)
        }.response
        let refresh = await service.answer {
            $0.refresh(self.refreshRequest(token), provider: provider, completion: $1)
        }.response
        let device = await service.deviceCode(
            request("", path: "/v1/spotify/device/code"), provider: provider
        ).response
        for response in [swap, refresh, device] {
            #expect(response.status.code == 400)
            #expect(try Self.errorCode(response) == "invalid_dpop_proof")
        }
        #expect(upstream.requests.isEmpty)
    }

    @Test func invalidAndReplayedProofsAreRefusedWithoutAProviderCall() async throws {
        let metrics = ServiceMetrics()
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.refreshed))
        let service = service(upstream, metrics: metrics)
        let token = try sealed("raw-r", grant: nil)
        let path = "/v1/spotify/refresh"
        let none = maker.proof(
            header: maker.header(alg: "none"), claims: DPoPProofMaker.claims(htu: Self.base + path),
            signature: [])
        let wrongURI = proof("/v1/spotify/swap")
        let twice = proof(path)
        for proofs in [[none], [wrongURI], [twice, twice]] {
            let response = await service.answer {
                $0.refresh(
                    self.refreshRequest(token, proofs: proofs), provider: self.provider,
                    completion: $1)
            }.response
            #expect(try Self.errorCode(response) == "invalid_dpop_proof")
        }
        #expect(upstream.requests.isEmpty)
        let replayed = proof(path)
        var codes: [Int] = []
        for _ in 0..<2 {
            let response = await service.answer {
                $0.refresh(
                    self.refreshRequest(token, proofs: [replayed]), provider: self.provider,
                    completion: $1)
            }.response
            codes.append(response.status.code)
        }
        #expect(codes == [200, 400])
        #expect(upstream.requests.count == 1)
        let text = String(decoding: await metrics.exposition(), as: UTF8.self)
        #expect(
            text.contains(#"tokenswap_dpop_proofs_total{provider="spotify",outcome="invalid"} 3"#))
        #expect(
            text.contains(#"tokenswap_dpop_proofs_total{provider="spotify",outcome="replayed"} 1"#))
        #expect(
            text.contains(#"tokenswap_dpop_proofs_total{provider="spotify",outcome="valid"} 1"#))
        #expect(!text.contains(replayed.prefix(30)))
    }

    /// CONTRACT §13: a valid proof whose id finds no room in the proof ids (here its
    /// client's share of 16 ids, one) is answered 503 with `Retry-After` (the ids' window),
    /// without a provider call and without an outcome; another client's proof passes.
    @Test func aProofWithoutRoomForItsIDIsAnswered503WithRetryAfter() async throws {
        let metrics = ServiceMetrics()
        let upstream = RecordingUpstream(
            RecordingUpstream.json(200, Self.refreshed), RecordingUpstream.json(200, Self.refreshed)
        )
        let gate = DPoPGate(
            settings: DPoPSettings(noncesRequired: false),
            keyRing: ring, store: MemoryStateStore(proofIDCapacity: 16), publicURL: Self.base,
            trustedProxies: TrustedProxies([]), servesTLS: false, metrics: metrics,
            now: { Self.now })
        let service = GrantEndpoints(
            keyRing: ring, transport: upstream, upstreamTimeoutSeconds: 2,
            logger: LogCapture().logger, metrics: metrics, dpop: gate, refreshReplaySeconds: 0)
        let token = try sealed("raw-r", grant: bound(to: maker))
        let path = "/v1/spotify/refresh"
        func refresh(from address: String) async -> HTTPResponse {
            var request = refreshRequest(token, proofs: [proof(path)])
            request.remoteAddress = address
            let sent = request
            return await service.answer {
                $0.refresh(sent, provider: self.provider, completion: $1)
            }.response
        }
        #expect(await refresh(from: "192.0.2.1").status.code == 200)
        let refused = await refresh(from: "192.0.2.1")
        #expect(refused.status.code == 503)
        #expect(try Self.errorCode(refused) == "temporarily_unavailable")
        #expect(refused.headers["Retry-After"] == "71")
        #expect(await refresh(from: "192.0.2.2").status.code == 200)
        #expect(upstream.requests.count == 2)
        let text = String(decoding: await metrics.exposition(), as: UTF8.self)
        #expect(
            text.contains(#"tokenswap_dpop_proofs_total{provider="spotify",outcome="valid"} 2"#))
        #expect(!text.contains(#"outcome="invalid""#))
    }

    /// RFC 9449 §8: a proof without the current nonce is `use_dpop_nonce` with a fresh
    /// `DPoP-Nonce`; the retry with it passes, and its answer carries a nonce too.
    @Test func nonceIsAskedForAndTheRetryWithItPasses() async throws {
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.refreshed))
        let service = service(upstream, nonces: true)
        let token = try sealed("raw-r", grant: nil)
        let path = "/v1/spotify/refresh"
        let first = await service.answer {
            $0.refresh(
                self.refreshRequest(token, proofs: [self.proof(path)]), provider: self.provider,
                completion: $1)
        }.response
        #expect(first.status.code == 400)
        #expect(try Self.errorCode(first) == "use_dpop_nonce")
        let nonce = try #require(first.headers["DPoP-Nonce"])
        #expect(upstream.requests.isEmpty)
        let forged = await service.answer {
            $0.refresh(
                self.refreshRequest(
                    token, proofs: [self.proof(path, nonce: "AAAAAAAAAAAAAAAAAAAAAA")]),
                provider: self.provider, completion: $1)
        }.response
        #expect(try Self.errorCode(forged) == "use_dpop_nonce")
        let retry = await service.answer {
            $0.refresh(
                self.refreshRequest(token, proofs: [self.proof(path, nonce: nonce)]),
                provider: self.provider, completion: $1)
        }.response
        #expect(retry.status.code == 200)
        #expect(retry.headers["DPoP-Nonce"] == nonce)
        #expect(try opened(retry).grant?.thumbprint == maker.thumbprint)
        // An invalid proof's answer carries one as well.
        let invalid = await service.answer {
            $0.refresh(
                self.refreshRequest(token, proofs: ["x.y.z"]), provider: self.provider,
                completion: $1)
        }.response
        #expect(try Self.errorCode(invalid) == "invalid_dpop_proof")
        #expect(invalid.headers["DPoP-Nonce"] == nonce)
    }

    @Test func offModeIgnoresTheHeaderAndBindsNothing() async throws {
        let provider = try Self.deviceProvider(dpop: .off)
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.tokens))
        let response = await service(upstream, nonces: true).answer {
            $0.swap(
                self.request("code=c", path: "/v1/spotify/swap", proofs: ["x.y.z"]),
                provider: provider, completion: $1)
        }.response
        #expect(response.status.code == 200)
        #expect(response.headers["DPoP-Nonce"] == nil)
        #expect(try opened(response).grant?.thumbprint == nil)
    }

    /// Binding fails closed: with the provider turned `off`, a token bound earlier cannot
    /// be proved, so it does not refresh (a copy of it is no easier to use). The proof is
    /// not read, so no outcome is counted (the metric counts providers that are not `off`).
    @Test func offModeKeepsBoundTokensBound() async throws {
        let provider = try Self.deviceProvider(dpop: .off)
        let upstream = RecordingUpstream()
        let metrics = ServiceMetrics()
        let token = try sealed("raw-r", grant: bound(to: maker))
        let path = "/v1/spotify/refresh"
        let response = await service(upstream, metrics: metrics).answer {
            $0.refresh(
                self.refreshRequest(token, proofs: [self.proof(path)]), provider: provider,
                completion: $1)
        }.response
        #expect(try Self.errorCode(response) == "invalid_grant")
        #expect(upstream.requests.isEmpty)
        let text = String(decoding: await metrics.exposition(), as: UTF8.self)
        #expect(!text.contains("tokenswap_dpop_proofs_total{"))
    }

    /// The token endpoint: the proof names the token endpoint's URI.
    @Test func tokenEndpointBindsAndChecksItsOwnURI() async throws {
        let upstream = RecordingUpstream(RecordingUpstream.json(200, Self.refreshed))
        let service = service(upstream)
        let token = try sealed("raw-r", grant: nil)
        let path = "/v1/spotify/token"
        let body = "grant_type=refresh_token&refresh_token=\(token)"
        let context = ServiceContext(requestID: "test-request", routePath: path)
        let wrong = await service.answer {
            $0.token(
                self.request(body, path: path, proofs: [self.proof("/v1/spotify/refresh")]),
                provider: self.provider, context: context, completion: $1)
        }.response
        #expect(try Self.errorCode(wrong) == "invalid_dpop_proof")
        let right = await service.answer {
            $0.token(
                self.request(body, path: path, proofs: [self.proof(path)]), provider: self.provider,
                context: context, completion: $1)
        }.response
        #expect(right.status.code == 200)
        #expect(try opened(right).grant?.thumbprint == maker.thumbprint)
    }

    /// A device code issued to a proved request is bound: its polls need that key, and
    /// its tokens are bound to it.
    @Test func boundDeviceCodeNeedsItsKeyAndYieldsBoundTokens() async throws {
        let upstream = RecordingUpstream(
            RecordingUpstream.json(
                200,
                #"{"device_code":"dc","user_code":"ABCD","verification_uri":"https://x.example/d","expires_in":600,"interval":1}"#
            ),
            RecordingUpstream.json(200, Self.tokens))
        let service = service(upstream)
        let codePath = "/v1/spotify/device/code"
        let issued = await service.deviceCode(
            request("", path: codePath, proofs: [proof(codePath)]), provider: provider
        ).response
        #expect(issued.status.code == 200)
        let code = try #require(try F.body(issued)["device_code"]?.stringValue)
        let tokenPath = "/v1/spotify/device/token"
        for proofs in [[], [proof(tokenPath, by: DPoPProofMaker())]] {
            let refused = await service.deviceToken(
                request("device_code=\(code)", path: tokenPath, proofs: proofs), provider: provider
            ).response
            #expect(try Self.errorCode(refused) == "invalid_grant")
        }
        #expect(upstream.requests.count == 1)
        let approved = await service.deviceToken(
            request("device_code=\(code)", path: tokenPath, proofs: [proof(tokenPath)]),
            provider: provider
        ).response
        #expect(approved.status.code == 200)
        #expect(try opened(approved).grant?.thumbprint == maker.thumbprint)
    }

    @Test func discoveryAndCORSAnnounceDPoP() throws {
        let on = AuthorizationServerMetadata.document(
            for: provider, publicURL: Self.base, sandbox: false, dpop: true)
        #expect(on["dpop_signing_alg_values_supported"] == .array([.string("ES256")]))
        let off = AuthorizationServerMetadata.document(
            for: provider, publicURL: Self.base, sandbox: false, dpop: false)
        #expect(off["dpop_signing_alg_values_supported"] == nil)
        #expect(CORSPolicy.allowedHeaders.contains("DPoP"))
        #expect(CORSPolicy.exposedHeaders.contains("DPoP-Nonce"))
    }
}
