import HTTPClient

/// One provider's settings as read: prefixed (`TOKENSWAP_ACME_CLIENT_ID`) first and, for
/// the default provider only, the unprefixed variable (`TOKENSWAP_CLIENT_ID`) after it.
struct ProviderSettings {
    let name: String
    let isDefault: Bool
    let source: ConfigurationSource

    /// The fields CONTRACT §3 lets the unprefixed variables set.
    private static let unprefixedFields: Set<ConfigurationKey.ProviderField> = [
        .clientID, .clientSecret, .redirectURI, .redirectURIs, .tokenURL,
    ]

    private func keys(_ field: ConfigurationKey.ProviderField) -> [ConfigurationKey] {
        var keys = [ConfigurationKey.provider(name, field)]
        if isDefault, Self.unprefixedFields.contains(field) { keys.append(.unprefixed(field)) }
        return keys
    }

    /// The key a missing setting is reported under: the unprefixed one for the default
    /// provider (what the contract's single-provider table tells operators to set).
    private func reportedKey(_ field: ConfigurationKey.ProviderField) -> ConfigurationKey {
        keys(field).last ?? .provider(name, field)
    }

    func string(_ field: ConfigurationKey.ProviderField) throws(ConfigurationError) -> (
        String, ConfigurationKey
    )? {
        for key in keys(field) {
            if let value = try source.string(key) { return (value, key) }
        }
        return nil
    }

    private func list(_ field: ConfigurationKey.ProviderField) throws(ConfigurationError) -> (
        [String], ConfigurationKey
    )? {
        for key in keys(field) {
            if let value = try source.list(key) { return (value, key) }
        }
        return nil
    }

    func invalid(_ key: ConfigurationKey, _ expected: String) -> ConfigurationError {
        ConfigurationError(variable: key.environmentName, problem: .invalid(expected: expected))
    }

    func missing(_ field: ConfigurationKey.ProviderField) -> ConfigurationError {
        ConfigurationError(variable: reportedKey(field).environmentName, problem: .missing)
    }

    func provider(sandbox: Bool) throws(ConfigurationError) -> Provider {
        let preset = try ServiceConfiguration.choice(
            .provider(name, .preset), source, default: ProviderPreset.implied(byName: name))

        let tokenURL: UpstreamURL
        if let (text, key) = try string(.tokenURL) {
            guard let url = try? UpstreamURL(text) else {
                throw invalid(key, "an http:// or https:// URL")
            }
            tokenURL = url
        } else if let presetURL = preset.tokenURL, let url = try? UpstreamURL(presetURL) {
            tokenURL = url
        } else if sandbox, let url = try? UpstreamURL(SandboxDefaults.tokenURL) {
            tokenURL = url
        } else {
            throw missing(.tokenURL)
        }

        let authMethod: ClientAuthMethod
        let authKey = ConfigurationKey.provider(name, .auth)
        if try source.string(authKey) != nil {
            authMethod = try ServiceConfiguration.choice(
                authKey, source, default: .clientSecretBasic)
        } else if let presetMethod = preset.authMethod {
            authMethod = presetMethod
        } else if sandbox {
            authMethod = .clientSecretBasic
        } else {
            throw missing(.auth)
        }

        let clientID: String
        if let (value, key) = try string(.clientID) {
            // It goes into a Basic header and a form body; controls would break both.
            guard value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
                throw invalid(key, "a client id without control characters")
            }
            clientID = value
        } else if sandbox {
            clientID = ConfigurationDefaults.sandboxClientID(provider: name)
        } else {
            throw missing(.clientID)
        }

        let dialect = try ServiceConfiguration.choice(
            .provider(name, .dialect), source, default: preset.dialect)
        let device = try deviceAuthorization(preset: preset, sandbox: sandbox)

        // A public client (`_AUTH none`, CONTRACT §7) holds no secret; one is required
        // only when some request to this provider would send it.
        let needsSecret = authMethod.needsSecret || (device?.clientAuth.needsSecret ?? false)
        let clientSecret: Secret
        if let (value, _) = try string(.clientSecret) {
            clientSecret = Secret(value)
        } else if sandbox {
            clientSecret = Secret(SandboxDefaults.randomSecret())
        } else if !needsSecret {
            clientSecret = Secret("")
        } else {
            throw missing(.clientSecret)
        }

        let redirectURI: String
        if let (value, key) = try string(.redirectURI) {
            guard SettingSyntax.isRedirectURI(value) else {
                throw invalid(key, "an absolute URI without a fragment")
            }
            redirectURI = value
        } else if sandbox {
            redirectURI = ConfigurationDefaults.sandboxRedirectURI
        } else {
            throw missing(.redirectURI)
        }

        var allowed: [String] = []
        if let (values, key) = try list(.redirectURIs) {
            guard values.allSatisfy(SettingSyntax.isRedirectURI) else {
                throw invalid(key, "comma-separated absolute URIs without fragments")
            }
            allowed = values
        }

        var legacy: [LegacyDecoder] = []
        if let (entries, key) = try list(.legacy) {
            legacy = try LegacyDecoder.parse(entries, variable: key.environmentName)
        }

        return Provider(
            name: name, preset: preset, tokenURL: tokenURL, clientID: clientID,
            clientSecret: clientSecret,
            authMethod: authMethod, redirectURI: redirectURI, allowedRedirectURIs: allowed,
            dialect: dialect, device: device, legacyDecoders: legacy,
            lifecycle: try lifecycle(
                preset: preset, clientID: clientID, dialect: dialect, tokenURL: tokenURL,
                sandbox: sandbox),
            dpopMode: try ServiceConfiguration.choice(
                .provider(name, .dpop), source, default: DPoPMode.default),
            familyPolicy: try GrantFamilyPolicy(source, provider: name))
    }

    /// The device grant settings (CONTRACT §7): present when a device authorization URL
    /// is configured or the preset has one (with `--sandbox`, always: the sandbox plays
    /// the device endpoint for every provider). The other device settings without a URL
    /// are a mistake worth naming at start-up.
    private func deviceAuthorization(preset: ProviderPreset, sandbox: Bool)
        throws(ConfigurationError) -> ProviderDeviceSettings?
    {
        let urlKey = ConfigurationKey.provider(name, .deviceAuthorizationURL)
        let url: UpstreamURL
        if let text = try source.string(urlKey) {
            guard let parsed = try? UpstreamURL(text) else {
                throw invalid(urlKey, "an http:// or https:// URL")
            }
            url = parsed
        } else if let presetURL = preset.deviceAuthorizationURL,
            let parsed = try? UpstreamURL(presetURL)
        {
            url = parsed
        } else if sandbox, let parsed = try? UpstreamURL(SandboxDefaults.deviceAuthorizationURL) {
            url = parsed
        } else {
            let authKey = ConfigurationKey.provider(name, .deviceClientAuth)
            let scopesKey = ConfigurationKey.provider(name, .deviceScopes)
            let stray =
                try source.string(authKey) != nil
                ? authKey
                : try source.list(scopesKey) != nil ? scopesKey : nil
            if let stray {
                throw invalid(stray, "to be set only with \(urlKey.environmentName)")
            }
            return nil
        }
        let clientAuth = try ServiceConfiguration.choice(
            .provider(name, .deviceClientAuth), source,
            default: preset.deviceClientAuth ?? ClientAuthMethod.none)
        var scopes: [String]?
        let scopesKey = ConfigurationKey.provider(name, .deviceScopes)
        if let values = try source.list(scopesKey) {
            // RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
            guard values.allSatisfy(SettingSyntax.isScopeToken) else {
                throw invalid(scopesKey, "comma-separated scope tokens (RFC 6749 §3.3)")
            }
            scopes = values
        }
        return ProviderDeviceSettings(url: url, clientAuth: clientAuth, allowedScopes: scopes)
    }
}
