/// One setting's name. The same components address the JSON file (`acme.client_id`, a
/// nested object) and the environment (`TOKENSWAP_ACME_CLIENT_ID`), so the two sources
/// mirror each other by construction.
package struct ConfigurationKey: Sendable, Hashable, CustomStringConvertible {
    /// Lower-case components; provider names may contain `-`.
    package let components: [String]

    package init(_ components: String...) {
        self.components = components
    }

    package init(components: [String]) {
        self.components = components
    }

    /// The environment variable: `TOKENSWAP_` + components upper-cased, joined by `_`, with
    /// every character that is not a letter or digit as `_` (so `my-app` is `MY_APP`). This is
    /// the same rule swift-configuration's environment provider applies to the lookup key.
    package var environmentName: String {
        let body = components.map { component in
            String(
                component.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
        }
        return (["TOKENSWAP"] + body).joined(separator: "_")
    }

    /// The dotted path inside the JSON file.
    package var filePath: String { components.joined(separator: ".") }

    package var description: String { environmentName }
}

extension ConfigurationKey {
    static let host = ConfigurationKey("host")
    static let port = ConfigurationKey("port")
    static let providers = ConfigurationKey("providers")
    static let defaultProvider = ConfigurationKey("default_provider")
    static let encryptionKeys = ConfigurationKey("encryption_keys")
    static let caFile = ConfigurationKey("ca_file")
    static let logLevel = ConfigurationKey("log_level")
    static let logFormat = ConfigurationKey("log_format")
    static let upstreamTimeoutSeconds = ConfigurationKey("upstream_timeout_seconds")
    static let adminPort = ConfigurationKey("admin_port")
    static let adminHost = ConfigurationKey("admin_host")
    static let rateLimit = ConfigurationKey("rate_limit")
    static let rateLimitBurst = ConfigurationKey("rate_limit_burst")
    static let maxBodyBytesInFlight = ConfigurationKey("max_body_bytes_in_flight")
    static let maxConnectionsPerClient = ConfigurationKey("max_connections_per_client")
    static let deviceRateLimit = ConfigurationKey("device_rate_limit")
    static let rateLimitIPv6Prefix = ConfigurationKey("rate_limit_ipv6_prefix")
    static let trustedProxies = ConfigurationKey("trusted_proxies")
    static let corsOrigins = ConfigurationKey("cors_origins")
    static let publicURL = ConfigurationKey("public_url")
    static let introspectionRateLimit = ConfigurationKey("introspection_rate_limit")
    static let legacyFailureLimit = ConfigurationKey("legacy_failure_limit")
    static let tlsCertFile = ConfigurationKey("tls_cert_file")
    static let tlsKeyFile = ConfigurationKey("tls_key_file")
    // Shared state (CONTRACT §12).
    static let stateURL = ConfigurationKey("state_url")
    static let statePassword = ConfigurationKey("state_password")
    static let stateTimeoutMilliseconds = ConfigurationKey("state_timeout_ms")
    static let stateFailure = ConfigurationKey("state_failure")
    static let refreshReplaySeconds = ConfigurationKey("refresh_replay_seconds")
    static let refreshReplayMaxEntries = ConfigurationKey("refresh_replay_max_entries")
    // DPoP (CONTRACT §13).
    static let dpopMaxAgeSeconds = ConfigurationKey("dpop_max_age_seconds")
    static let dpopNonce = ConfigurationKey("dpop_nonce")
    static let dpopProofIDs = ConfigurationKey("dpop_proof_ids")
    // Grant families (CONTRACT §14).
    static let revocationRetentionDays = ConfigurationKey("revocation_retention_days")

    /// The per-provider settings, both prefixed (`acme.client_id`) and, for the default
    /// provider, unprefixed (`client_id`).
    enum ProviderField: String, CaseIterable, Sendable {
        case preset
        case clientID = "client_id"
        case clientSecret = "client_secret"
        case redirectURI = "redirect_uri"
        case redirectURIs = "redirect_uris"
        case tokenURL = "token_url"
        case auth
        case authorizeURL = "authorize_url"
        case revocationStyle = "revocation_style"
        case revocationURL = "revocation_url"
        case introspectionStyle = "introspection_style"
        case introspectionURL = "introspection_url"
        case dialect
        case deviceAuthorizationURL = "device_authorization_url"
        case deviceClientAuth = "device_client_auth"
        case deviceScopes = "device_scopes"
        /// Legacy token formats (CONTRACT §9); prefixed only.
        case legacy
        /// DPoP binding (CONTRACT §13): optional, required or off; prefixed only.
        case dpop
        /// Grant families (CONTRACT §14): `off` or `on`; prefixed only.
        case reuseDetection = "reuse_detection"
        /// Grant families (CONTRACT §14): seconds, 0 = unknown; prefixed only.
        case refreshTokenLifetimeSeconds = "refresh_token_lifetime_seconds"
    }

    static func provider(_ name: String, _ field: ProviderField) -> ConfigurationKey {
        ConfigurationKey(name, field.rawValue)
    }

    static func unprefixed(_ field: ProviderField) -> ConfigurationKey {
        ConfigurationKey(field.rawValue)
    }
}
