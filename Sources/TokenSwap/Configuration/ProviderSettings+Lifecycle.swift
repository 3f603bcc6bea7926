import HTTPClient

extension ProviderSettings {
    /// `_AUTHORIZE_URL`, `_REVOCATION_STYLE`/`_URL`, `_INTROSPECTION_STYLE`/`_URL`
    /// (CONTRACT §8): each variable wins over the preset. A style other than `none` needs
    /// a URL; a URL without a style gets the preset's style, else the RFC one.
    ///
    /// With `--sandbox`, a provider whose revocation or introspection is not configured at
    /// all gets the sandbox's: RFC 7009 / RFC 7662 at `/sandbox/revoke`,
    /// `/sandbox/introspect`, or in the L2P dialect L2P's `invalidate` grant on the token
    /// endpoint and its `tokeninfo`. The sandbox stands in for the provider and plays them.
    func lifecycle(
        preset: ProviderPreset, clientID: String, dialect: ProviderDialect,
        tokenURL: UpstreamURL, sandbox: Bool
    ) throws(ConfigurationError) -> ProviderLifecycle {
        // With `--sandbox` the sandbox's authorize endpoint stands in for the provider's.
        var authorizeURL = sandbox ? nil : preset.authorizeURL
        if let (text, key) = try string(.authorizeURL) {
            guard (try? UpstreamURL(text)) != nil else {
                throw invalid(key, "an http:// or https:// URL")
            }
            authorizeURL = text
        }
        var sandboxRevocation: (style: RevocationStyle, url: UpstreamURL)?
        var sandboxIntrospection: (style: IntrospectionStyle, url: UpstreamURL)?
        if sandbox, dialect == .l2p, let tokenInfo = try? UpstreamURL(SandboxDefaults.tokenInfoURL)
        {
            sandboxRevocation = (.l2p, tokenURL)
            sandboxIntrospection = (.l2p, tokenInfo)
        } else if sandbox, let revoke = try? UpstreamURL(SandboxDefaults.revocationURL),
            let introspect = try? UpstreamURL(SandboxDefaults.introspectionURL)
        {
            sandboxRevocation = (.rfc7009, revoke)
            sandboxIntrospection = (.rfc7662, introspect)
        }
        let revocation = try endpoint(
            style: .revocationStyle, url: .revocationURL, presetStyle: preset.revocationStyle,
            presetURL: preset.revocationURL, sandbox: sandboxRevocation, clientID: clientID)
        let introspection = try endpoint(
            style: .introspectionStyle, url: .introspectionURL,
            presetStyle: preset.introspectionStyle, presetURL: preset.introspectionURL,
            sandbox: sandboxIntrospection, clientID: clientID)
        return ProviderLifecycle(
            authorizeURL: authorizeURL, revocationStyle: revocation.style,
            revocationURL: revocation.url, introspectionStyle: introspection.style,
            introspectionURL: introspection.url)
    }

    /// One of the two endpoints: its style and URL from the variables, the preset, or
    /// (with `--sandbox` and nothing configured) the sandbox. `{client_id}` in a URL is
    /// replaced by the percent-encoded client id (GitHub puts it in the path).
    private func endpoint<Style: LifecycleStyle>(
        style styleField: ConfigurationKey.ProviderField,
        url urlField: ConfigurationKey.ProviderField, presetStyle: Style, presetURL: String?,
        sandbox: (style: Style, url: UpstreamURL)?, clientID: String
    ) throws(ConfigurationError) -> (style: Style, url: UpstreamURL?) {
        let styleKey = ConfigurationKey.provider(name, styleField)
        let configuredStyle: Style? =
            try source.string(styleKey) == nil
            ? nil : try ServiceConfiguration.choice(styleKey, source, default: Style.standard)
        let configuredURL = try string(urlField)
        if configuredStyle == nil, configuredURL == nil, let sandbox {
            return (sandbox.style, sandbox.url)
        }
        var style = configuredStyle ?? presetStyle
        if configuredStyle == nil, configuredURL != nil, presetStyle == .unsupported {
            style = .standard
        }
        if style == .unsupported { return (style, nil) }
        let text: String
        let key: ConfigurationKey
        if let (value, urlKey) = configuredURL {
            (text, key) = (value, urlKey)
        } else if let presetURL {
            (text, key) = (presetURL, .provider(name, urlField))
        } else if let sandbox {
            // A style chosen for the sandbox, which answers at its own URL.
            return (style, sandbox.url)
        } else {
            throw missing(urlField)
        }
        let expanded = text.replacing(
            "{client_id}", with: FormURLEncoding.encodeComponent(clientID))
        guard let url = try? UpstreamURL(expanded) else {
            throw invalid(key, "an http:// or https:// URL")
        }
        return (style, url)
    }
}
