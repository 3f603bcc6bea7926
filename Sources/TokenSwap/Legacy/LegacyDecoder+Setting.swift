#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension LegacyDecoder {
    /// `TOKENSWAP_<NAME>_LEGACY`: `format:secret-file[,format:secret-file…]` (CONTRACT §9).
    /// The file holds the old service's secret; one trailing line break is not part of it.
    /// Errors name the variable and the entry's position, never a path's content.
    static func parse(_ entries: [String], variable: String) throws(ConfigurationError)
        -> [LegacyDecoder]
    {
        var decoders: [LegacyDecoder] = []
        for (index, entry) in entries.enumerated() {
            let position = "entry \(index + 1)"
            let parts = entry.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let format = LegacyFormat(rawValue: String(parts[0])) else {
                let names = LegacyFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw ConfigurationError(
                    variable: variable,
                    problem: .invalid(
                        expected: "format:secret-file (\(position)); formats: \(names)"))
            }
            guard let data = FileManager.default.contents(atPath: String(parts[1])),
                var secret = String(validating: [UInt8](data), as: UTF8.self)
            else {
                throw ConfigurationError(
                    variable: variable,
                    problem: .invalid(expected: "a readable UTF-8 secret file (\(position))"))
            }
            // "\r\n" is one Character, so one removeLast takes either line break.
            if secret.hasSuffix("\n") || secret.hasSuffix("\r\n") { secret.removeLast() }
            guard !secret.isEmpty else {
                throw ConfigurationError(
                    variable: variable,
                    problem: .invalid(expected: "a non-empty secret file (\(position))"))
            }
            decoders.append(
                LegacyDecoder(
                    format: format, secret: Secret(secret),
                    secretFile: canonicalPath(String(parts[1]))))
        }
        return decoders
    }

    /// CONTRACT §9: one secret file serves one provider. A secret shared by two providers
    /// would open one provider's old tokens at the other (sending them there with its
    /// client secret), so a file named by two providers' `_LEGACY` settings, however the
    /// paths are spelled, stops start-up naming the later setting.
    static func refuseSharedSecretFiles(_ providers: [Provider]) throws(ConfigurationError) {
        var owners: [String: String] = [:]
        for provider in providers {
            for file in Set(provider.legacyDecoders.compactMap(\.secretFile)) {
                if let owner = owners[file], owner != provider.name {
                    let other = ConfigurationKey.provider(owner, .legacy).environmentName
                    throw ConfigurationError(
                        variable: ConfigurationKey.provider(provider.name, .legacy)
                            .environmentName,
                        problem: .invalid(
                            expected:
                                "secret files no other provider names (\(other) names one of them)"
                        ))
                }
                owners[file] = provider.name
            }
        }
    }

    /// `path` with symbolic links, `.` and `..` resolved; as given if it cannot be (the
    /// file was read just before, so only a race makes it so).
    private static func canonicalPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
