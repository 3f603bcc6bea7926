import Sealing

/// Everything the service needs to start, validated once at start-up
/// (`ServiceConfiguration.load`) into plain immutable values.
public struct ServiceConfiguration: Sendable {
    package let host: String
    package let port: Int
    /// Every provider, in the order configured; `defaultProvider` is one of them.
    package let providers: [Provider]
    package let defaultProvider: Provider
    /// Seals and opens refresh tokens; with `sandbox` and no keys configured, an
    /// ephemeral ring whose tokens die with the process.
    package let keyRing: KeyRing
    /// Extra PEM CA bundle for upstream TLS, in addition to the system store.
    package let caFile: String?
    package let logLevel: LogLevelSetting
    package let logFormat: LogFormat
    package let upstreamTimeoutSeconds: Double
    /// When set, `/healthz`, `/readyz`, `/metrics` are served here instead of `port`.
    package let adminPort: Int?
    /// Token requests per second per client address; 0 = off.
    package let rateLimitPerSecond: Double
    /// Requests a client may make at once before the rate applies.
    package let rateLimitBurst: Int
    /// `TOKENSWAP_MAX_BODY_BYTES_IN_FLIGHT`: the server's body budget.
    package let maxBodyBytesInFlight: Int
    /// `TOKENSWAP_MAX_CONNECTIONS_PER_CLIENT`; 0 = no cap.
    package let maxConnectionsPerClient: Int
    /// IPv6 clients are limited per prefix of this length (a /64 by default), IPv4
    /// clients per address.
    package let rateLimitIPv6PrefixLength: Int
    /// Addresses or CIDRs whose `X-Forwarded-For` is believed, as configured (validated).
    package let trustedProxies: [String]
    /// Origins allowed for browser clients (`*` or `scheme://host[:port]`).
    package let corsOrigins: [String]
    /// `serve --sandbox`: the embedded fake accounts service answers for every provider.
    package let sandbox: Bool
    /// `TOKENSWAP_PUBLIC_URL`, without a trailing `/`: the base apps use, and the issuer
    /// prefix of the RFC 8414 documents; nil: no discovery documents (404).
    package let publicURL: String?
    /// `/introspect` calls per minute per client address (RFC 7662 §4: token scanning);
    /// 0 = off.
    package let introspectionRateLimitPerMinute: Int
    /// `/device/code` requests per minute per client address; 0 = off.
    package let deviceRateLimitPerMinute: Double
    /// Failed legacy opens per minute per client address (CONTRACT §9); 0 = off.
    package internal(set) var legacyFailureLimitPerMinute =
        ConfigurationDefaults.legacyFailureLimitPerMinute
    /// The key ring was generated at start-up (sandbox without `TOKENSWAP_ENCRYPTION_KEYS`).
    package let ephemeralKeys: Bool
    /// The main port's certificate and key (CONTRACT §10); nil: plain HTTP.
    package internal(set) var tls: TLSSettings?
    /// The files that hold secrets, for `check-config`'s permission warning (CONTRACT §15).
    package internal(set) var secretFiles: [SecretFile] = []
    /// `TOKENSWAP_ADMIN_HOST`: where the admin port listens; nil: on `host` (CONTRACT §15).
    package internal(set) var adminHost: String?
    /// `TOKENSWAP_STATE_URL` and its companions (CONTRACT §12); nil: state in memory.
    package internal(set) var state: StateSettings?
    /// `TOKENSWAP_REFRESH_REPLAY_SECONDS`: how long a refresh's answer is replayed to a
    /// repeat of its request (CONTRACT §12); 0 = off.
    package internal(set) var refreshReplaySeconds = ConfigurationDefaults.refreshReplaySeconds
    /// `TOKENSWAP_REFRESH_REPLAY_MAX_ENTRIES`: the replay table's cap (CONTRACT §12).
    package internal(set) var refreshReplayMaxEntries =
        ConfigurationDefaults.refreshReplayMaxEntries
    /// `TOKENSWAP_<NAME>_DPOP`, `TOKENSWAP_DPOP_MAX_AGE_SECONDS`, `TOKENSWAP_DPOP_NONCE`
    /// (CONTRACT §13).
    package internal(set) var dpop = DPoPSettings()
    /// `TOKENSWAP_REVOCATION_RETENTION_DAYS`, `TOKENSWAP_<NAME>_REUSE_DETECTION` and
    /// `_REFRESH_TOKEN_LIFETIME_SECONDS` (CONTRACT §14).
    package internal(set) var families = GrantFamilySettings()

    package init(
        host: String, port: Int, providers: [Provider], defaultProvider: Provider, keyRing: KeyRing,
        caFile: String?, logLevel: LogLevelSetting, logFormat: LogFormat,
        upstreamTimeoutSeconds: Double,
        adminPort: Int?, rateLimitPerSecond: Double, rateLimitBurst: Int,
        rateLimitIPv6PrefixLength: Int = ConfigurationDefaults.rateLimitIPv6PrefixLength,
        trustedProxies: [String], corsOrigins: [String], sandbox: Bool,
        ephemeralKeys: Bool = false,
        maxBodyBytesInFlight: Int = ConfigurationDefaults.maxBodyBytesInFlight,
        maxConnectionsPerClient: Int = ConfigurationDefaults.maxConnectionsPerClient,
        deviceRateLimitPerMinute: Double = ConfigurationDefaults.deviceRateLimitPerMinute,
        publicURL: String? = nil,
        introspectionRateLimitPerMinute: Int = ConfigurationDefaults.introspectionRateLimitPerMinute
    ) {
        self.host = host
        self.port = port
        self.providers = providers
        self.defaultProvider = defaultProvider
        self.keyRing = keyRing
        self.caFile = caFile
        self.logLevel = logLevel
        self.logFormat = logFormat
        self.upstreamTimeoutSeconds = upstreamTimeoutSeconds
        self.adminPort = adminPort
        self.rateLimitPerSecond = rateLimitPerSecond
        self.rateLimitBurst = rateLimitBurst
        self.maxBodyBytesInFlight = maxBodyBytesInFlight
        self.maxConnectionsPerClient = maxConnectionsPerClient
        self.rateLimitIPv6PrefixLength = rateLimitIPv6PrefixLength
        self.trustedProxies = trustedProxies
        self.corsOrigins = corsOrigins
        self.sandbox = sandbox
        self.publicURL = publicURL
        self.introspectionRateLimitPerMinute = introspectionRateLimitPerMinute
        self.deviceRateLimitPerMinute = deviceRateLimitPerMinute
        self.ephemeralKeys = ephemeralKeys
    }

    /// The provider serving `/v1/<name>/…`, or nil (a 404).
    package func provider(named name: some StringProtocol) -> Provider? {
        providers.first { $0.name == name }
    }
}

/// `TOKENSWAP_LOG_FORMAT`: human-readable lines or one JSON object per line.
package enum LogFormat: String, Sendable, Hashable, CaseIterable {
    case text, json
}

/// `TOKENSWAP_LOG_LEVEL`. The wiring maps it to swift-log's `Logger.Level`.
package enum LogLevelSetting: String, Sendable, Hashable, CaseIterable {
    case debug, info, warning, error
}
