/// What `--sandbox` uses where a real deployment needs configuration.
public enum SandboxDefaults {
    /// Stands in for a generic provider's token endpoint: with `--sandbox` the upstream is
    /// the in-process `SandboxProvider`, so this URL is never dialled (`.invalid` is
    /// reserved and never resolves, RFC 2606 §2, should it ever be).
    public static let tokenURL = "http://sandbox.invalid/sandbox/token"
    /// Stands in for a provider's device authorization endpoint (RFC 8628 §3.1), never
    /// dialled either: the sandbox answers requests to this path in process.
    public static let deviceAuthorizationURL = "http://sandbox.invalid/sandbox/device/code"

    /// A fresh client secret per process, so no sandbox secret is ever shared or published.
    public static func randomSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String(
            (0..<32).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}

extension SandboxDefaults {
    /// The sandbox's RFC 7009 and RFC 7662 endpoints, for providers that configure none:
    /// like `tokenURL`, never dialled (the sandbox answers in process by path).
    public static let revocationURL = "http://sandbox.invalid/sandbox/revoke"
    public static let introspectionURL = "http://sandbox.invalid/sandbox/introspect"
    /// L2P's access-token check, for providers in the L2P dialect.
    public static let tokenInfoURL = "http://sandbox.invalid/sandbox/tokeninfo"
}
