/// What a sealed value is, bound into its associated data so one kind never opens as
/// another (CONTRACT §7): a sealed device code sent to `/refresh`, or a sealed refresh
/// token sent to `/device/token`, fails the tag check like a tampered token.
public enum SealedKind: UInt8, Sendable, Hashable, CaseIterable {
    /// A provider refresh token (CONTRACT §4). Its associated data is exactly the
    /// version-1 layout without a kind field, so every token sealed before kinds existed
    /// still opens.
    case refreshToken = 0
    /// A device code with its expiry (RFC 8628 §3.2, CONTRACT §7).
    case deviceCode = 1
    /// A refresh's answer kept for the replay window (CONTRACT §12): it holds a live
    /// access token, so it is sealed like a token, and as its own kind it never opens as
    /// a refresh token or device code (nor they as it).
    case keptAnswer = 2
}
