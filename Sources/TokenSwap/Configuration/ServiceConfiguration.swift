import Sealing

/// Everything the service needs to start, validated once at start-up
/// (`ServiceConfiguration.load`) into plain immutable values.
public struct ServiceConfiguration: Sendable {
    public let host: String
    public let port: Int
    /// Every provider, in the order configured; `defaultProvider` is one of them.
    public let providers: [Provider]
    public let defaultProvider: Provider
    /// Seals and opens refresh tokens; with `sandbox` and no keys configured, an
    /// ephemeral ring whose tokens die with the process.
    public let keyRing: KeyRing
    /// Extra PEM CA bundle for upstream TLS, in addition to the system store.
    public let caFile: String?
    public let logLevel: LogLevelSetting
    public let logFormat: LogFormat
    public let upstreamTimeoutSeconds: Double
    /// When set, `/healthz`, `/readyz`, `/metrics` are served here instead of `port`.
    public let adminPort: Int?
    /// Token requests per second per client address; 0 = off.
    public let rateLimitPerSecond: Double
    /// Requests a client may make at once before the rate applies.
    public let rateLimitBurst: Int
    /// `TOKENSWAP_MAX_BODY_BYTES_IN_FLIGHT`: the server's body budget.
    public let maxBodyBytesInFlight: Int
    /// `TOKENSWAP_MAX_CONNECTIONS_PER_CLIENT`; 0 = no cap.
    public let maxConnectionsPerClient: Int
    /// IPv6 clients are limited per prefix of this length (a /64 by default), IPv4
    /// clients per address.
    public let rateLimitIPv6PrefixLength: Int
    /// Addresses or CIDRs whose `X-Forwarded-For` is believed, as configured (validated).
    public let trustedProxies: [String]
    /// Origins allowed for browser clients (`*` or `scheme://host[:port]`).
    public let corsOrigins: [String]
    /// `serve --sandbox`: the embedded fake accounts service answers for every provider.
    public let sandbox: Bool
    /// `TOKENSWAP_PUBLIC_URL`, without a trailing `/`: the base apps use, and the issuer
    /// prefix of the RFC 8414 documents; nil: no discovery documents (404).
    public let publicURL: String?
    /// `/introspect` calls per minute per client address (RFC 7662 §4: token scanning);
    /// 0 = off.
    public let introspectionRateLimitPerMinute: Int
    /// `/device/code` requests per minute per client address; 0 = off.
    public let deviceRateLimitPerMinute: Double
    /// Failed legacy opens per minute per client address (CONTRACT §9); 0 = off.
    public internal(set) var legacyFailureLimitPerMinute =
        ConfigurationDefaults.legacyFailureLimitPerMinute
    /// The key ring was generated at start-up (sandbox without `TOKENSWAP_ENCRYPTION_KEYS`).
    public let ephemeralKeys: Bool
    /// The main port's certificate and key (CONTRACT §10); nil: plain HTTP.
    public internal(set) var tls: TLSSettings?
    /// The files that hold secrets, for `check-config`'s permission warning (CONTRACT §15).
    public internal(set) var secretFiles: [SecretFile] = []
    /// `TOKENSWAP_ADMIN_HOST`: where the admin port listens; nil: on `host` (CONTRACT §15).
    public internal(set) var adminHost: String?

    public init(
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
    public func provider(named name: some StringProtocol) -> Provider? {
        providers.first { $0.name == name }
    }
}

/// `TOKENSWAP_LOG_FORMAT`: human-readable lines or one JSON object per line.
public enum LogFormat: String, Sendable, Hashable, CaseIterable {
    case text, json
}

/// `TOKENSWAP_LOG_LEVEL`. The wiring maps it to swift-log's `Logger.Level`.
public enum LogLevelSetting: String, Sendable, Hashable, CaseIterable {
    case debug, info, warning, error
}
