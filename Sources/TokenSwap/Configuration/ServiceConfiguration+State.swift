import RESPClient

extension ServiceConfiguration {
    /// `TOKENSWAP_STATE_URL`, `_PASSWORD`, `_TIMEOUT_MS` and `_FAILURE` (CONTRACT §12), or
    /// nil when no URL is set. The companions are checked either way, so a typo is found
    /// before the URL is added. A refusal never quotes the URL or the password.
    static func stateSettings(_ source: ConfigurationSource) throws(ConfigurationError)
        -> StateSettings?
    {
        let timeout = try ConfigurationDefaults.stateTimeoutMillisecondsRange.checked(
            try source.int(.stateTimeoutMilliseconds)
                ?? ConfigurationDefaults.stateTimeoutMilliseconds,
            variable: ConfigurationKey.stateTimeoutMilliseconds.environmentName)
        let failure = try Self.choice(
            .stateFailure, source, default: ConfigurationDefaults.stateFailure)
        let password = try source.string(.statePassword).map(Secret.init)
        guard let url = try source.string(.stateURL) else { return nil }
        let endpoint: RESPEndpoint
        do {
            endpoint = try RESPEndpoint(url: url, password: password?.revealed)
        } catch {
            // RESPError's reasons name the part that is wrong, never its value.
            throw ConfigurationError(
                variable: ConfigurationKey.stateURL.environmentName,
                problem: .invalid(
                    expected: "redis://[[user]:password@]host[:port][/db] or rediss://… (\(error))"
                ))
        }
        return StateSettings(
            endpoint: endpoint, timeoutMilliseconds: timeout, failure: failure)
    }
}
