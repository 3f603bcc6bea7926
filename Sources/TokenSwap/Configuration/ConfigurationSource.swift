import Configuration
import Sealing

/// Where settings come from, in priority order: the environment first (it wins), then the
/// optional JSON file. Built on swift-configuration's providers; the lookup is done here,
/// provider by provider, rather than through `ConfigReader`, because start-up must tell a
/// missing setting from a malformed one and name the variable in both cases, and the
/// reader's optional getters fold both into `nil`.
package struct ConfigurationSource: Sendable {
    private let providers: [any ConfigProvider]

    /// - Parameters:
    ///   - environment: the variables to read (the process environment in production,
    ///     a dictionary in tests so parallel tests never share state).
    ///   - configFile: path of the JSON file (`--config`), if any.
    package init(environment: [String: String], configFile: String? = nil)
        async throws(ConfigurationError)
    {
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
        return upper.hasSuffix("_CLIENT_SECRET")
            || upper == ConfigurationKey.encryptionKeys.environmentName
            || stateSecrets.contains { upper == $0.environmentName }
    }

    static func isSecret(fileKey key: String) -> Bool {
        key.hasSuffix("client_secret") || key == ConfigurationKey.encryptionKeys.filePath
            || stateSecrets.contains { key == $0.filePath }
    }

    /// The store's password, and its URL, which may carry one (CONTRACT §12).
    private static let stateSecrets: [ConfigurationKey] = [.stateURL, .statePassword]

    private static func fileProvider(path: String) async throws(ConfigurationError)
        -> FileProvider<JSONFileSnapshot>
    {
        let options = JSONFileSnapshot.ParsingOptions { key in isSecret(fileKey: key) }
        do {
            return try await FileProvider<JSONFileSnapshot>(
                parsingOptions: options, filePath: .init(path))
        } catch {
            // The library's error text may quote file content, which can hold secrets.
            throw ConfigurationError(
                variable: "--config",
                problem: .unreadableFile(reason: "cannot read \(path) as a JSON object of settings")
            )
        }
    }

    /// The first value any source has for the key, or nil when none has it.
    private func content(_ key: ConfigurationKey, type: ConfigType, expected: String)
        throws(ConfigurationError) -> ConfigContent?
    {
        let absolute = AbsoluteConfigKey(key.components)
        for provider in providers {
            let result: LookupResult
            do {
                result = try provider.value(forKey: absolute, type: type)
            } catch {
                throw ConfigurationError(
                    variable: key.environmentName, problem: .invalid(expected: expected))
            }
            if let value = result.value { return value.content }
        }
        return nil
    }

    package func string(_ key: ConfigurationKey) throws(ConfigurationError) -> String? {
        guard case .string(let value)? = try content(key, type: .string, expected: "a string")
        else { return nil }
        return value.isEmpty ? nil : value
    }

    /// An integer: a JSON number, or digits in a string (the environment's form, also
    /// accepted in the file so the two can be copied into each other).
    package func int(_ key: ConfigurationKey) throws(ConfigurationError) -> Int? {
        let expected = "an integer"
        switch try contentAllowingString(key, type: .int, expected: expected) {
        case .int(let value)?: return value
        case .string(let text)?:
            let trimmed = text.trimmingWhitespace()
            let digits = trimmed.hasPrefix("-") ? trimmed.dropFirst() : Substring(trimmed)
            guard (1...18).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(trimmed)
            else {
                throw ConfigurationError(
                    variable: key.environmentName, problem: .invalid(expected: expected))
            }
            return value
        default: return nil
        }
    }

    /// A finite number: a JSON number, or its text in a string.
    package func double(_ key: ConfigurationKey) throws(ConfigurationError) -> Double? {
        let expected = "a number"
        switch try contentAllowingString(key, type: .double, expected: expected) {
        case .double(let value)?: return value
        case .string(let text)?:
            guard let value = Double(text.trimmingWhitespace()), value.isFinite else {
                throw ConfigurationError(
                    variable: key.environmentName, problem: .invalid(expected: expected))
            }
            return value
        default: return nil
        }
    }

    /// The typed value, or, when a source holds the key with another type, its string
    /// form (for the caller to parse); nil when no source has it.
    private func contentAllowingString(
        _ key: ConfigurationKey, type: ConfigType, expected: String
    ) throws(ConfigurationError) -> ConfigContent? {
        do {
            return try content(key, type: type, expected: expected)
        } catch {
            guard let text = try? content(key, type: .string, expected: expected) else {
                throw error
            }
            return text
        }
    }

    /// A list: comma-separated in the environment, a JSON array of strings (or a
    /// comma-separated string) in the file.
    /// Items are trimmed; empty items are dropped.
    package func list(_ key: ConfigurationKey) throws(ConfigurationError) -> [String]? {
        let values: [String]
        switch try contentAllowingString(
            key, type: .stringArray, expected: "a comma-separated list")
        {
        case .stringArray(let array)?: values = array
        case .string(let text)?:
            values = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        default: return nil
        }
        let items = values.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        return items
    }
}
