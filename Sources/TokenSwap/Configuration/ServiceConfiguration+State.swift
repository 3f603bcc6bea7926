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
        guard let location = StateLocation(url) else {
            throw ConfigurationError(
                variable: ConfigurationKey.stateURL.environmentName,
                problem: .invalid(
                    expected: "redis://[[user]:password@]host[:port][/db] or rediss://…"))
        }
        return StateSettings(
            url: Secret(url), password: password, timeoutMilliseconds: timeout,
            failure: failure, location: location.description)
    }
}

/// What a state URL says about where the store is, without its credentials: the scheme,
/// host, port and database, for `check-config` and the start-up line.
struct StateLocation: CustomStringConvertible {
    let tls: Bool
    let host: String
    let port: Int
    let database: Int

    /// Nil unless `url` is `redis://` or `rediss://` with a host, a port in range and a
    /// database number (0 to 15 by default; any small number a server may allow).
    init?(_ url: String) {
        let tls: Bool
        var rest: Substring
        if url.hasPrefix("redis://") {
            tls = false
            rest = url.dropFirst("redis://".count)
        } else if url.hasPrefix("rediss://") {
            tls = true
            rest = url.dropFirst("rediss://".count)
        } else {
            return nil
        }
        self.tls = tls
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            if !path.isEmpty {
                guard path.count <= 5, let number = Int(path), number >= 0 else { return nil }
                database = number
            }
            rest = rest[..<slash]
        }
        self.database = database
        var host = rest
        var port = 6379
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let number = Int(rest[rest.index(after: colon)...]) else { return nil }
            port = number
        }
        guard !host.isEmpty, (1...65535).contains(port),
            !host.contains(where: { $0 == "?" || $0 == "#" || $0.isWhitespace })
        else { return nil }
        self.host = String(host)
        self.port = port
    }

    var description: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return "\(tls ? "rediss" : "redis")://\(host):\(port)/\(database)"
    }
}
