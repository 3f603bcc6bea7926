import TokenSwap

/// The banner `serve --sandbox` prints before anything else: impossible to miss, and
/// enough to try the whole flow with `curl`. It names no secret (the sandbox client
/// secret stays inside the process).
package enum SandboxBanner {
    /// - Parameter ephemeralKeys: false when `TOKENSWAP_ENCRYPTION_KEYS` is set: then the
    ///   banner says so plainly, since refresh tokens sealed here open wherever that key
    ///   ring is used.
    package static func text(
        baseURL: String, defaultProvider: Provider, ephemeralKeys: Bool
    ) -> String {
        let line = String(repeating: "!", count: 78)
        let redirect = FormURLEncoding.encodeComponent(defaultProvider.redirectURI)
        let keys =
            ephemeralKeys
            ? """
            !!  No real provider is called; tokens are worthless outside this process;
            !!  keys are ephemeral. NEVER run --sandbox in production.
            """
            : """
            !!  No real provider is called, BUT REAL KEYS ARE SET (TOKENSWAP_ENCRYPTION_KEYS):
            !!  refresh tokens sealed here open wherever that key ring is used.
            !!  NEVER run --sandbox in production.
            """
        return """
            \(line)
            !!  SANDBOX MODE: tokenswap is talking to a FAKE accounts service.
            \(keys)
            \(line)
            Try it:
              curl -si '\(baseURL)/sandbox/authorize?redirect_uri=\(redirect)&state=xyz'
                 -> 302 Location: \(defaultProvider.redirectURI)?code=CODE&state=xyz
              curl -s \(baseURL)/v1/swap -d code=CODE
              curl -s \(baseURL)/v1/refresh --data-urlencode refresh_token=SEALED_REFRESH_TOKEN
              curl -s \(baseURL)/v1/introspect -d token=ACCESS_TOKEN
              curl -si \(baseURL)/v1/revoke --data-urlencode token=SEALED_REFRESH_TOKEN
            Failures on demand (as the swap code): sandbox-invalid, sandbox-expired, sandbox-429,
              sandbox-429-json, sandbox-500, sandbox-slow, sandbox-garbage; sandbox-refresh-<failure>
              plants that failure in the refresh token for the next refresh.
            Device flow (RFC 8628):
              curl -s \(baseURL)/v1/device/code -d scope=demo
                 -> open verification_uri_complete in a browser, approve, then poll:
              curl -s \(baseURL)/v1/device/token --data-urlencode device_code=SEALED_DEVICE_CODE
            Device failures on demand (as the scope): sandbox-deny, sandbox-expire, sandbox-slow-down.
            \(line)
            """
    }
}
