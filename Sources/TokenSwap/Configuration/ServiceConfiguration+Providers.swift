import HTTPClient

extension ServiceConfiguration {
    /// `TOKENSWAP_PROVIDERS` (default: `spotify`), each provider's settings, and the default.
    static func providers(
        _ source: ConfigurationSource, sandbox: Bool
    ) throws(ConfigurationError) -> ([Provider], Provider) {
        let listKey = ConfigurationKey.providers
        let names = try source.list(listKey) ?? [ConfigurationDefaults.providerName]
        guard !names.isEmpty, names.allSatisfy(Provider.isValidName) else {
            throw ConfigurationError(
                variable: listKey.environmentName,
                problem: .invalid(
                    expected: "comma-separated provider names matching [a-z0-9-]{1,32}"))
        }
        guard Set(names).count == names.count else {
            throw ConfigurationError(
                variable: listKey.environmentName,
                problem: .invalid(expected: "each provider name once"))
        }
        let defaultName = try source.string(.defaultProvider) ?? names[0]
        guard names.contains(defaultName) else {
            throw ConfigurationError(
                variable: ConfigurationKey.defaultProvider.environmentName,
                problem: .invalid(expected: "one of the names in \(listKey.environmentName)"))
        }
        var providers: [Provider] = []
        for name in names {
            let settings = ProviderSettings(
                name: name, isDefault: name == defaultName, source: source)
            providers.append(try settings.provider(sandbox: sandbox))
        }
        try LegacyDecoder.refuseSharedSecretFiles(providers)
        // The name was checked to be in the list, and the list produced one provider each.
        guard let defaultProvider = providers.first(where: { $0.name == defaultName }) else {
            throw ConfigurationError(
                variable: ConfigurationKey.defaultProvider.environmentName, problem: .missing)
        }
        return (providers, defaultProvider)
    }
}
