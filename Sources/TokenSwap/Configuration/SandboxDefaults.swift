/// What `--sandbox` uses where a real deployment needs configuration.
package enum SandboxDefaults {
    /// Stands in for a generic provider's token endpoint: with `--sandbox` the upstream is
    /// the in-process `SandboxProvider`, so this URL is never dialled (`.invalid` is
    /// reserved and never resolves, RFC 2606 §2, should it ever be).
    package static let tokenURL = "http://sandbox.invalid/sandbox/token"
    /// Stands in for a provider's device authorization endpoint (RFC 8628 §3.1), never
    /// dialled either: the sandbox answers requests to this path in process.
    package static let deviceAuthorizationURL = "http://sandbox.invalid/sandbox/device/code"

    /// A fresh client secret per process, so no sandbox secret is ever shared or published.
    package static func randomSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String(
            (0..<32).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}

extension SandboxDefaults {
    /// The sandbox's RFC 7009 and RFC 7662 endpoints, for providers that configure none:
    /// like `tokenURL`, never dialled (the sandbox answers in process by path).
    package static let revocationURL = "http://sandbox.invalid/sandbox/revoke"
    package static let introspectionURL = "http://sandbox.invalid/sandbox/introspect"
    /// L2P's access-token check, for providers in the L2P dialect.
    package static let tokenInfoURL = "http://sandbox.invalid/sandbox/tokeninfo"
}
