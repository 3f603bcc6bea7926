#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ServiceConfiguration {
    /// The files of this configuration that hold secrets (`SecretFile`): the TLS key, each
    /// provider's legacy secret files, and the `--config` file when it sets a client secret
    /// or the key ring.
    static func secretFiles(
        _ source: ConfigurationSource, providers: [Provider], tls: TLSSettings?,
        configFile: String?
    ) throws(ConfigurationError) -> [SecretFile] {
        var files: [SecretFile] = []
        if let tls {
            files.append(
                SecretFile(setting: ConfigurationKey.tlsKeyFile.environmentName, path: tls.keyFile))
        }
        for provider in providers {
            let key = ConfigurationKey.provider(provider.name, .legacy)
            // `format:secret-file`, already validated by the provider's settings.
            for entry in try source.list(key) ?? [] {
                guard let colon = entry.firstIndex(of: ":") else { continue }
                files.append(
                    SecretFile(
                        setting: key.environmentName,
                        path: String(entry[entry.index(after: colon)...])))
            }
        }
        if let configFile, holdsSecret(configFile: configFile) {
            files.append(SecretFile(setting: "--config", path: configFile))
        }
        return files
    }

    /// Whether the JSON configuration file sets a member that is a secret (a client secret
    /// or the key ring, as `ConfigurationSource` redacts them).
    static func holdsSecret(configFile: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: configFile),
            let parsed = try? JSONParser.parse(Array(data))
        else { return false }
        var pending: [(String, JSONValue)] = [("", parsed)]
        while let (prefix, value) = pending.popLast() {
            guard case .object(let members) = value else { continue }
            for member in members {
                let key = prefix.isEmpty ? member.name : prefix + "." + member.name
                if ConfigurationSource.isSecret(fileKey: key) { return true }
                pending.append((key, member.value))
            }
        }
        return false
    }
}
