import Configuration

/// Where settings come from, in priority order: the environment first (it wins), then the
/// optional JSON file. Built on swift-configuration's providers; the lookup is done here,
/// provider by provider, rather than through `ConfigReader`, because start-up must tell a
/// missing setting from a malformed one and name the variable in both cases, and the
/// reader's optional getters fold both into `nil`.
public struct ConfigurationSource: Sendable {
    private let providers: [any ConfigProvider]

    /// - Parameters:
    ///   - environment: the variables to read (the process environment in production,
    ///     a dictionary in tests so parallel tests never share state).
    ///   - configFile: path of the JSON file (`--config`), if any.
    public init(environment: [String: String], configFile: String? = nil) async throws(ConfigurationError) {
        // Docker and shell scripts often export empty variables; empty means unset.
        let present = environment.filter { $0.key.hasPrefix("TOKENSWAP_") && !$0.value.isEmpty }
        let environmentProvider = EnvironmentVariablesProvider(
            environmentVariables: present,
            secretsSpecifier: .dynamic { name, _ in Self.isSecret(environmentName: name) }
        ).prefixKeys(with: ["tokenswap"])
        var providers: [any ConfigProvider] = [environmentProvider]
        if let configFile {
            providers.append(try await Self.fileProvider(path: configFile))
        }
        self.providers = providers
    }

    static func isSecret(environmentName name: String) -> Bool {
        let upper = name.uppercased()
        return upper.hasSuffix("_CLIENT_SECRET") || upper == ConfigurationKey.encryptionKeys.environmentName
    }

    static func isSecret(fileKey key: String) -> Bool {
        key.hasSuffix("client_secret") || key == ConfigurationKey.encryptionKeys.filePath
    }

    private static func fileProvider(path: String) async throws(ConfigurationError) -> FileProvider<JSONSnapshot> {
        let options = JSONSnapshot.ParsingOptions(
            secretsSpecifier: .dynamic { key, _ in isSecret(fileKey: key) })
        do {
            return try await FileProvider<JSONSnapshot>(parsingOptions: options, filePath: .init(path))
        } catch {
            // The library's error text may quote file content, which can hold secrets.
            throw ConfigurationError(
                variable: "--config",
                problem: .unreadableFile(reason: "cannot read \(path) as a JSON object of settings"))
        }
    }

    /// The first value any source has for the key, or nil when none has it.
    private func content(_ key: ConfigurationKey, type: ConfigType, expected: String) throws(ConfigurationError) -> ConfigContent? {
        let absolute = AbsoluteConfigKey(key.components)
        for provider in providers {
            let result: LookupResult
            do {
                result = try provider.value(forKey: absolute, type: type)
            } catch {
                throw ConfigurationError(variable: key.environmentName, problem: .invalid(expected: expected))
            }
            if let value = result.value { return value.content }
        }
        return nil
    }

    public func string(_ key: ConfigurationKey) throws(ConfigurationError) -> String? {
        guard case .string(let value)? = try content(key, type: .string, expected: "a string") else { return nil }
        return value.isEmpty ? nil : value
    }

    public func int(_ key: ConfigurationKey) throws(ConfigurationError) -> Int? {
        guard case .int(let value)? = try content(key, type: .int, expected: "an integer") else { return nil }
        return value
    }

    public func double(_ key: ConfigurationKey) throws(ConfigurationError) -> Double? {
        guard case .double(let value)? = try content(key, type: .double, expected: "a number") else { return nil }
        return value
    }

    /// A list: comma-separated in the environment, a JSON array of strings in the file.
    /// Items are trimmed; empty items are dropped.
    public func list(_ key: ConfigurationKey) throws(ConfigurationError) -> [String]? {
        guard case .stringArray(let values)? = try content(key, type: .stringArray, expected: "a comma-separated list")
        else { return nil }
        let items = values.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        return items
    }
}
