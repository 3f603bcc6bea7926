extension ServiceConfiguration {
    /// One line for `check-config` and the start-up log: what will run, never a secret
    /// (client ids are not secret; secrets and keys are not mentioned at all).
    package var summary: String {
        let names = providers.map {
            $0.name == defaultProvider.name ? "\($0.name) (default)" : $0.name
        }
        return
            "configuration OK: listen \(host):\(port), providers \(names.joined(separator: ", ")), "
            + "\(keyRing.keyIDs.count) key(s), active kid \(keyRing.activeKeyID)"
            + (tls.map { ", https (certificate \($0.certificateChainFile))" } ?? "")
            + (publicURL.map {
                ", discovery at \($0)/.well-known/oauth-authorization-server/v1/<name>"
            }
                ?? "")
            + (state.map { ", state in \($0.location) (failure \($0.failure.rawValue))" }
                ?? ", state in memory")
            + (sandbox ? ", SANDBOX" : "")
    }
}
