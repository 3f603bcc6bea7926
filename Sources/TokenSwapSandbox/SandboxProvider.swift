import HTTPCore
import Synchronization
import TokenSwap
import Transport

/// An in-process fake OAuth 2.0 accounts service for `serve --sandbox` and the tests: an
/// authorize endpoint that mints codes for `curl`, and a token endpoint with client
/// authentication (RFC 6749 §2.3.1, both Basic and body credentials), single-use,
/// expiring codes bound to client, redirect URI and PKCE challenge (§4.1.2, §4.1.3,
/// RFC 7636), refresh tokens rotated on every refresh (a reused code revokes what it
/// issued, §4.1.2), revocation (RFC 7009) and introspection (RFC 7662). Failures on
/// demand: see `SandboxMagicValue`.
///
/// It also plays the device authorization grant (RFC 8628) in each provider's dialect,
/// with a verification page for the user (`SandboxProvider+Device.swift`).
///
/// It serves as the `UpstreamTransport` of every provider at once (the token URL is not
/// dialled; the request's path picks the endpoint), and over HTTP at
/// `GET /sandbox/authorize`, `POST /sandbox/token|revoke|introspect`,
/// `POST /sandbox/device/code` and `GET|POST /sandbox/device`.
/// State is bounded by `SandboxLimits` and lives only as long as the process.
package final class SandboxProvider: Sendable {
    /// A client the sandbox accepts: a configured provider's id and secret.
    struct Client: Sendable {
        let clientID: String
        let secret: [UInt8]
        let redirectURIs: [String]
        let defaultRedirectURI: String
        let dialect: ProviderDialect
        let tokenAuth: ClientAuthMethod
        /// nil: the provider has no device endpoint.
        let deviceAuth: ClientAuthMethod?
        /// The path of the provider's device authorization URL: requests to it are
        /// device requests, whatever host the URL names (it is never dialled).
        let deviceTarget: String?

        func authMethod(for endpoint: ClientEndpoint) -> ClientAuthMethod? {
            switch endpoint {
            case .token: tokenAuth
            case .deviceAuthorization: deviceAuth
            }
        }
    }

    struct CodeGrant: Sendable {
        let clientID: String
        let redirectURI: String?
        let challenge: PKCEChallenge?
        let scope: String
        /// Set once the code is exchanged: a second use revokes this token family.
        var issuedFamily: UInt64?
    }

    struct RefreshGrant: Sendable {
        let clientID: String
        let scope: String
        let family: UInt64
    }

    /// An issued access token, kept so introspection can answer for it and revocation
    /// can end it (with its whole family when the grant's refresh token is revoked).
    struct AccessGrant: Sendable {
        let clientID: String
        let scope: String
        let family: UInt64
        /// Seconds since the epoch: RFC 7662's `exp` and `iat`.
        let expiresAt: Int
        let issuedAt: Int
    }

    struct State: Sendable {
        var codes: ExpiringGrantStore<CodeGrant>
        var refreshTokens: ExpiringGrantStore<RefreshGrant>
        var accessTokens: ExpiringGrantStore<AccessGrant>
        var nextFamily: UInt64 = 0
        /// Device codes (RFC 8628 §3.2) and the user codes that point at them.
        var deviceGrants: ExpiringGrantStore<DeviceGrant>
        var userCodes: ExpiringGrantStore<String>

        /// Ends a grant: every refresh and access token issued from it (RFC 7009 §2.1,
        /// RFC 6749 §4.1.2 for a reused code).
        mutating func revokeFamily(_ family: UInt64) {
            refreshTokens.removeAll { $0.family == family }
            accessTokens.removeAll { $0.family == family }
        }
    }

    let limits: SandboxLimits
    /// Now on the monotonic clock, for every lifetime and limit; injected by tests.
    let clock: @Sendable () -> Deadline
    /// Now on the wall clock, for the times a grant states (`iat`, `exp`).
    let wallClock: WallClock
    let clients: [Client]
    let defaultClientID: String
    let state: Mutex<State>
    /// Where the verification page is served (`http://host:port`), set once the service
    /// listens; device answers point the user there.
    let baseURL = Mutex<String>("http://localhost:8080")
    /// Throttles `POST /sandbox/token` per TCP peer (see `SandboxLimits`).
    let tokenLimiter: RateLimiter
    /// Wrong user codes on the verification page, per client (`SandboxLimits`).
    let wrongUserCodeLimit: ClientRateLimit?
    /// Signs the verification form's CSRF cookie.
    let formToken = SandboxFormToken()

    /// - Parameters:
    ///   - providers: the configured providers; their ids and secrets are the clients.
    ///   - defaultProvider: whose client `authorize` assumes when no `client_id` is given.
    ///   - wrongUserCodeLimit: the verification page's limit, keyed as the service's other
    ///     per-client limits (`ServiceConfiguration.clientRateLimit`); nil: the TCP peer,
    ///     at `limits.wrongUserCodesPerMinute`, on `clock`.
    ///   - clock, wallClock: the system's clocks unless a test injects its own.
    package init(
        providers: [Provider], defaultProvider: Provider, limits: SandboxLimits = SandboxLimits(),
        wrongUserCodeLimit: ClientRateLimit? = nil,
        clock: @escaping @Sendable () -> Deadline = { .now }, wallClock: WallClock = .system
    ) {
        self.limits = limits
        self.clock = clock
        self.wallClock = wallClock
        self.wrongUserCodeLimit =
            wrongUserCodeLimit
            ?? ClientRateLimit(
                perMinute: limits.wrongUserCodesPerMinute, trustedProxies: TrustedProxies([]),
                ipv6PrefixLength: ConfigurationDefaults.rateLimitIPv6PrefixLength, clock: clock)
        self.clients = providers.map {
            Client(
                clientID: $0.clientID, secret: Array($0.clientSecret.revealed.utf8),
                redirectURIs: [$0.redirectURI] + $0.allowedRedirectURIs,
                defaultRedirectURI: $0.redirectURI, dialect: $0.dialect, tokenAuth: $0.authMethod,
                deviceAuth: $0.device?.clientAuth, deviceTarget: $0.device?.url.target)
        }
        self.defaultClientID = defaultProvider.clientID
        self.tokenLimiter = RateLimiter(
            ratePerSecond: limits.tokenRequestsPerSecond, burst: limits.tokenRequestBurst,
            capacity: 10_000, clock: clock)
        self.state = Mutex(
            State(
                codes: ExpiringGrantStore(capacity: limits.maxOutstandingCodes),
                refreshTokens: ExpiringGrantStore(capacity: limits.maxRefreshTokens),
                accessTokens: ExpiringGrantStore(capacity: limits.maxAccessTokens),
                deviceGrants: ExpiringGrantStore(capacity: limits.maxOutstandingCodes),
                userCodes: ExpiringGrantStore(capacity: limits.maxOutstandingCodes)))
    }

    /// The sandbox of `serve --sandbox` for a loaded configuration: its providers are the
    /// clients, and wrong user codes are limited per client like the service's other
    /// per-client limits.
    package convenience init(configuration: ServiceConfiguration) {
        self.init(
            providers: configuration.providers, defaultProvider: configuration.defaultProvider,
            wrongUserCodeLimit: configuration.clientRateLimit(
                perMinute: SandboxLimits().wrongUserCodesPerMinute))
    }

    /// Tells the sandbox where it is served, for the verification URIs it hands out.
    package func serve(at baseURL: String) {
        self.baseURL.withLock { $0 = baseURL }
    }

    func client(_ clientID: String) -> Client? {
        clients.first { $0.clientID == clientID }
    }

    /// An unguessable grant value: 32 random characters from the system CSPRNG.
    static func randomValue(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return prefix
            + String(
                (0..<32).map { _ in
                    alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))]
                })
    }
}
