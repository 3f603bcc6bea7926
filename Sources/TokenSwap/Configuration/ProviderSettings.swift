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

        let clientSecret: Secret
        if let (value, _) = try string(.clientSecret) {
            clientSecret = Secret(value)
        } else if sandbox {
            clientSecret = Secret(SandboxDefaults.randomSecret())
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

        return Provider(
            name: name, preset: preset, tokenURL: tokenURL, clientID: clientID,
            clientSecret: clientSecret,
            authMethod: authMethod, redirectURI: redirectURI, allowedRedirectURIs: allowed,
            lifecycle: try lifecycle(preset: preset, clientID: clientID, sandbox: sandbox))
    }
}
