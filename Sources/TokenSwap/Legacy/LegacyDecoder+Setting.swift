#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
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
            decoders.append(LegacyDecoder(format: format, secret: Secret(secret)))
        }
        return decoders
    }
}
