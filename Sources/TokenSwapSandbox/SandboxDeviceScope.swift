import TokenSwap

/// Scopes that make the sandbox's device flow fail on purpose, so a device's polling
/// loop can be tried on each ending (RFC 8628 §3.5). Asked for as (one of) the `scope`
/// of `/device/code`:
///
/// | scope | every poll answers | device sees |
/// |---|---|---|
/// | `sandbox-deny` | `access_denied` (as if the user denied) | 400 `access_denied` |
/// | `sandbox-expire` | `expired_token` | 400 `expired_token` |
/// | `sandbox-slow-down` | `slow_down` | 400 `slow_down`, interval +5 s |
enum SandboxDeviceScope: String, CaseIterable, Sendable {
    case deny = "sandbox-deny"
    case expire = "sandbox-expire"
    case slowDown = "sandbox-slow-down"

    /// The first magic scope among the space-separated `scope`, if any.
    static func requested(in scope: String?) -> SandboxDeviceScope? {
        scope?.split(separator: " ").lazy.compactMap { SandboxDeviceScope(rawValue: String($0)) }
            .first
    }
}
