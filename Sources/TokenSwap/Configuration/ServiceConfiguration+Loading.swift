import HTTPClient
import Sealing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ServiceConfiguration {
    /// Reads the JSON file (if any) and the environment (which wins), and validates every
    /// setting. The first problem found is thrown, naming its variable; secret values
    /// never appear in it.
    ///
    /// - Parameters:
    ///   - environment: the variables to read; pass `ProcessInfo.processInfo.environment`
    ///     in the binary and a dictionary in tests.
    ///   - configFile: the `--config` path.
    ///   - sandbox: `serve --sandbox`: credentials, redirect URI and keys become optional
    ///     (the sandbox makes its own).
    package static func load(
        environment: [String: String], configFile: String? = nil, sandbox: Bool = false
    ) async throws(ConfigurationError) -> ServiceConfiguration {
        let source = try await ConfigurationSource(environment: environment, configFile: configFile)
        var configuration = try ServiceConfiguration(source: source, sandbox: sandbox)
        configuration.secretFiles = try Self.secretFiles(
            source, providers: configuration.providers, tls: configuration.tls,
            configFile: configFile)
        return configuration
    }

    init(source: ConfigurationSource, sandbox: Bool) throws(ConfigurationError) {
        let host = try source.string(.host) ?? ConfigurationDefaults.host
        let port = try Self.port(.port, source) ?? ConfigurationDefaults.port
        let adminPort = try Self.port(.adminPort, source)
        if let adminPort, adminPort != 0, adminPort == port {
            throw ConfigurationError(
                variable: ConfigurationKey.adminPort.environmentName,
                problem: .invalid(
                    expected: "a port other than \(ConfigurationKey.port.environmentName)"))
        }

        let (providers, defaultProvider) = try Self.providers(source, sandbox: sandbox)

        let keyRing: KeyRing
        var ephemeralKeys = false
        if let text = try source.string(.encryptionKeys) {
            do {
                keyRing = try KeyRing(parsing: text)
            } catch {
                // KeyRingError texts never contain key material (see KeyRingError).
                throw ConfigurationError(
                    variable: ConfigurationKey.encryptionKeys.environmentName,
                    problem: .invalid(
                        expected: "kid:key[,kid:key...] with 32-byte base64url keys (\(error))"))
            }
        } else if sandbox {
            do {
                keyRing = try KeyRing.ephemeral()
                ephemeralKeys = true
            } catch {
                throw ConfigurationError(
                    variable: ConfigurationKey.encryptionKeys.environmentName,
                    problem: .invalid(
                        expected: "a key ring; generating an ephemeral one failed (\(error))"))
            }
        } else {
            throw ConfigurationError(
                variable: ConfigurationKey.encryptionKeys.environmentName, problem: .missing)
        }

        let caFile = try source.string(.caFile)
        if let caFile, access(caFile, R_OK) != 0 {
            throw ConfigurationError(
                variable: ConfigurationKey.caFile.environmentName,
                problem: .invalid(expected: "a readable PEM file"))
        }

        let logLevel = try Self.choice(.logLevel, source, default: ConfigurationDefaults.logLevel)
        let logFormat = try Self.choice(
            .logFormat, source, default: ConfigurationDefaults.logFormat)

        let timeout = try ConfigurationDefaults.upstreamTimeoutSecondsRange.checked(
            try source.double(.upstreamTimeoutSeconds)
                ?? ConfigurationDefaults.upstreamTimeoutSeconds,
            variable: ConfigurationKey.upstreamTimeoutSeconds.environmentName)
        let rate = try ConfigurationDefaults.rateLimitPerSecondRange.checked(
            try source.double(.rateLimit) ?? ConfigurationDefaults.rateLimitPerSecond,
            variable: ConfigurationKey.rateLimit.environmentName)
        let burst = try ConfigurationDefaults.rateLimitBurstRange.checked(
            // "Same as the rate" (CONTRACT §5), at least one request so a fractional rate
            // works; the rate's range keeps the rounding inside Int.
            try source.int(.rateLimitBurst) ?? max(1, Int(rate.rounded(.up))),
            variable: ConfigurationKey.rateLimitBurst.environmentName)
        let ipv6Prefix = try ConfigurationDefaults.rateLimitIPv6PrefixLengthRange.checked(
            try source.int(.rateLimitIPv6Prefix) ?? ConfigurationDefaults.rateLimitIPv6PrefixLength,
            variable: ConfigurationKey.rateLimitIPv6Prefix.environmentName)

        let bodyBudget = try ConfigurationDefaults.maxBodyBytesInFlightRange.checked(
            try source.int(.maxBodyBytesInFlight) ?? ConfigurationDefaults.maxBodyBytesInFlight,
            variable: ConfigurationKey.maxBodyBytesInFlight.environmentName)
        let perClient = try ConfigurationDefaults.maxConnectionsPerClientRange.checked(
            try source.int(.maxConnectionsPerClient)
                ?? ConfigurationDefaults.maxConnectionsPerClient,
            variable: ConfigurationKey.maxConnectionsPerClient.environmentName)

        let deviceRate =
            try source.double(.deviceRateLimit) ?? ConfigurationDefaults.deviceRateLimitPerMinute
        guard deviceRate >= 0, deviceRate.isFinite else {
            throw ConfigurationError(
                variable: ConfigurationKey.deviceRateLimit.environmentName,
                problem: .invalid(expected: "requests per minute, 0 or more"))
        }

        let trustedProxies = try source.list(.trustedProxies) ?? []
        if trustedProxies.contains(where: { !SettingSyntax.isAddressOrCIDR($0) }) {
            throw ConfigurationError(
                variable: ConfigurationKey.trustedProxies.environmentName,
                problem: .invalid(expected: "comma-separated IP addresses or CIDRs"))
        }
        let corsOrigins = try source.list(.corsOrigins) ?? []
        if corsOrigins.contains(where: { !SettingSyntax.isCORSOrigin($0) }) {
            throw ConfigurationError(
                variable: ConfigurationKey.corsOrigins.environmentName,
                problem: .invalid(expected: "comma-separated origins (scheme://host[:port]) or *"))
        }

        let publicURL = try Self.publicURL(source)
        let introspectionLimit =
            try source.int(.introspectionRateLimit)
            ?? ConfigurationDefaults.introspectionRateLimitPerMinute
        guard introspectionLimit >= 0 else {
            throw ConfigurationError(
                variable: ConfigurationKey.introspectionRateLimit.environmentName,
                problem: .invalid(expected: "requests per minute, 0 or more"))
        }

        self.init(
            host: host, port: port, providers: providers, defaultProvider: defaultProvider,
            keyRing: keyRing,
            caFile: caFile, logLevel: logLevel, logFormat: logFormat,
            upstreamTimeoutSeconds: timeout,
            adminPort: adminPort, rateLimitPerSecond: rate, rateLimitBurst: burst,
            rateLimitIPv6PrefixLength: ipv6Prefix, trustedProxies: trustedProxies,
            corsOrigins: corsOrigins, sandbox: sandbox, ephemeralKeys: ephemeralKeys,
            maxBodyBytesInFlight: bodyBudget, maxConnectionsPerClient: perClient,
            deviceRateLimitPerMinute: deviceRate, publicURL: publicURL,
            introspectionRateLimitPerMinute: introspectionLimit)
        self.tls = try Self.tlsSettings(source)
        let legacyFailures =
            try source.int(.legacyFailureLimit) ?? ConfigurationDefaults.legacyFailureLimitPerMinute
        let legacyFailuresRange = ConfigurationDefaults.legacyFailureLimitPerMinuteRange
        self.legacyFailureLimitPerMinute = try legacyFailuresRange.checked(
            legacyFailures, variable: ConfigurationKey.legacyFailureLimit.environmentName)
        self.adminHost = try source.string(.adminHost)
        self.state = try Self.stateSettings(source)
        self.refreshReplaySeconds = try ConfigurationDefaults.refreshReplaySecondsRange.checked(
            try source.int(.refreshReplaySeconds) ?? ConfigurationDefaults.refreshReplaySeconds,
            variable: ConfigurationKey.refreshReplaySeconds.environmentName)
        self.refreshReplayMaxEntries = try ConfigurationDefaults.refreshReplayMaxEntriesRange
            .checked(
                try source.int(.refreshReplayMaxEntries)
                    ?? ConfigurationDefaults.refreshReplayMaxEntries,
                variable: ConfigurationKey.refreshReplayMaxEntries.environmentName)
        self.dpop = try DPoPSettings(source)
        self.families = try GrantFamilySettings(source)
    }

    /// `TOKENSWAP_PUBLIC_URL`: an `https://` base (RFC 8414 §2: the issuer is https), or
    /// `http://` on a loopback host for trying it locally (RFC 8252 §7.3's exception); no
    /// query or fragment. A trailing `/` is dropped so paths append cleanly.
    private static func publicURL(_ source: ConfigurationSource) throws(ConfigurationError)
        -> String?
    {
        guard var text = try source.string(.publicURL) else { return nil }
        while text.hasSuffix("/") { text.removeLast() }
        let loopback = ["http://127.0.0.1", "http://localhost", "http://[::1]"]
        let isLoopback = loopback.contains { prefix in
            text == prefix || text.hasPrefix(prefix + ":") || text.hasPrefix(prefix + "/")
        }
        guard let url = try? UpstreamURL(text), text.hasPrefix("https://") || isLoopback,
            !url.target.contains("?"), !text.contains("#")
        else {
            throw ConfigurationError(
                variable: ConfigurationKey.publicURL.environmentName,
                problem: .invalid(
                    expected: "an https:// URL without query or fragment (http:// only on loopback)"
                ))
        }
        return text
    }

    /// 0 means "any free port" (tests and the sandbox use it).
    private static func port(_ key: ConfigurationKey, _ source: ConfigurationSource)
        throws(ConfigurationError) -> Int?
    {
        guard let value = try source.int(key) else { return nil }
        guard (0...65535).contains(value) else {
            throw ConfigurationError(
                variable: key.environmentName, problem: .invalid(expected: "a port, 0 to 65535"))
        }
        return value
    }

    static func choice<Choice: RawRepresentable<String> & CaseIterable>(
        _ key: ConfigurationKey, _ source: ConfigurationSource, default defaultValue: Choice
    ) throws(ConfigurationError) -> Choice {
        guard let text = try source.string(key) else { return defaultValue }
        guard let value = Choice(rawValue: text) else {
            let names = Choice.allCases.map(\.rawValue)
            let expected = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
            throw ConfigurationError(
                variable: key.environmentName, problem: .invalid(expected: expected))
        }
        return value
    }
}
