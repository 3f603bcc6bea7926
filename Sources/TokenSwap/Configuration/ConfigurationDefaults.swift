/// Every default of CONTRACT §5 in one place, each with its unit in the name.
public enum ConfigurationDefaults {
    public static let host = "0.0.0.0"
    public static let port = 8080
    public static let providerName = "spotify"
    public static let logLevel = LogLevelSetting.info
    public static let logFormat = LogFormat.text
    public static let upstreamTimeoutSeconds = 10.0
    /// 0 turns the limiter off.
    public static let rateLimitPerSecond = 0.0
    /// `/introspect` per client address per minute (CONTRACT §8); a resource server checks
    /// a token once per request at most, a scanner guesses thousands.
    public static let introspectionRateLimitPerMinute = 60
    /// `/device/code` calls per minute per client (CONTRACT §7); 0 turns it off.
    public static let deviceRateLimitPerMinute = 10.0
    /// Longest upstream deadline accepted; a longer one would hold connections open
    /// beyond any client's patience.
    public static let maxUpstreamTimeoutSeconds = 300.0
    /// With `--sandbox`, when no redirect URI is configured: a custom scheme, as a mobile
    /// app registers, so nothing on the machine receives the redirect.
    public static let sandboxRedirectURI = "tokenswap-sandbox://callback"
    /// With `--sandbox`, a provider's client id when none is configured: one per provider,
    /// so the sandbox can tell which provider's client is calling.
    public static func sandboxClientID(provider name: String) -> String { "sandbox-\(name)" }
}
