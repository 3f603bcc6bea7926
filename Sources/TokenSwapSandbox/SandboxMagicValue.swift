import TokenSwap

/// Codes and refresh tokens that make the sandbox fail on purpose, so an app can try
/// each error path. Sent as the `code` of a swap or (inside a sealed token, see
/// `sandbox-refresh-*`) as the refresh token of a refresh:
///
/// | value | sandbox answers | client sees |
/// |---|---|---|
/// | `sandbox-invalid` | 400 `invalid_grant` | 400 `invalid_grant` |
/// | `sandbox-expired` | 400 `invalid_grant` ("expired") | 400 `invalid_grant` |
/// | `sandbox-429` | 429, `Retry-After: 7`, plain-text body | 429 `temporarily_unavailable`, `Retry-After: 7` |
/// | `sandbox-429-json` | 429, `Retry-After: 7`, OAuth JSON error | 429 with that body, `Retry-After: 7` |
/// | `sandbox-500` | 500 | 502 `upstream_error` |
/// | `sandbox-slow` | nothing until after the upstream deadline | 504 `upstream_timeout` |
/// | `sandbox-garbage` | 200 with a non-JSON body | 502 `upstream_error` |
///
/// Codes only:
/// - `sandbox-refresh-<failure>` (e.g. `sandbox-refresh-expired`): a normal swap whose
///   refresh token is `sandbox-<failure>`, so the next refresh with it fails that way.
/// - `sandbox-no-refresh`: a swap answered without a refresh token.
/// - `sandbox-string-expiry`: a swap whose `expires_in` is the string `"3600"`.
enum SandboxMagicValue: String, CaseIterable, Sendable {
    case invalid = "sandbox-invalid"
    case expired = "sandbox-expired"
    case throttled = "sandbox-429"
    case throttledJSON = "sandbox-429-json"
    case serverError = "sandbox-500"
    case slow = "sandbox-slow"
    case garbage = "sandbox-garbage"

    static let refreshPrefix = "sandbox-refresh-"
    static let noRefresh = "sandbox-no-refresh"
    static let stringExpiry = "sandbox-string-expiry"

    /// The failure a `sandbox-refresh-<failure>` code plants in its refresh token.
    static func planted(byCode code: String) -> SandboxMagicValue? {
        guard code.hasPrefix(refreshPrefix) else { return nil }
        return SandboxMagicValue(rawValue: "sandbox-" + code.dropFirst(refreshPrefix.count))
    }
}
