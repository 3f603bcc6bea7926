import HTTPClient

/// A provider's device authorization grant settings (RFC 8628, CONTRACT §7): where the
/// device request goes, how it authenticates, and which scopes an app may ask for.
package struct ProviderDeviceSettings: Sendable, Hashable {
    /// `TOKENSWAP_<NAME>_DEVICE_AUTHORIZATION_URL` or the preset's.
    package let url: UpstreamURL
    /// `TOKENSWAP_<NAME>_DEVICE_CLIENT_AUTH`: how the device request authenticates; the
    /// poll uses the provider's `authMethod` like every other token request.
    package let clientAuth: ClientAuthMethod
    /// `TOKENSWAP_<NAME>_DEVICE_SCOPES`: nil allows any scope; otherwise every scope an
    /// app requests must be in it (else `invalid_scope`).
    package let allowedScopes: [String]?

    package init(url: UpstreamURL, clientAuth: ClientAuthMethod, allowedScopes: [String]? = nil) {
        self.url = url
        self.clientAuth = clientAuth
        self.allowedScopes = allowedScopes
    }

    /// Whether a requested `scope` (space-separated, RFC 6749 §3.3) is allowed.
    package func allows(scope: String?) -> Bool {
        guard let allowedScopes, let scope else { return true }
        return scope.split(separator: " ").allSatisfy { allowedScopes.contains(String($0)) }
    }
}
