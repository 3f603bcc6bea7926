/// Why the configuration cannot start the service: the setting at fault, named as its
/// environment variable (the JSON file mirrors the same names), and what is wrong with it.
/// The problem text is written by the loader and never contains the value of a secret.
package struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Problem: Sendable, Equatable {
        case missing
        /// The value is there but is not what the setting takes; the text says what is expected.
        case invalid(expected: String)
        /// The configuration file cannot be read or parsed.
        case unreadableFile(reason: String)
    }

    /// The environment variable name (`TOKENSWAP_ACME_AUTH`) or `--config` for the file.
    package let variable: String
    package let problem: Problem

    package init(variable: String, problem: Problem) {
        self.variable = variable
        self.problem = problem
    }

    /// One line, as printed at start-up and by `check-config`.
    package var description: String {
        switch problem {
        case .missing: "\(variable): required setting is missing"
        case .invalid(let expected): "\(variable): expected \(expected)"
        case .unreadableFile(let reason): "\(variable): \(reason)"
        }
    }
}
