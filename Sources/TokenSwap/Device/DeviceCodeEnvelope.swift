#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a sealed device code holds (CONTRACT §7): the provider's device code, when it
/// expires (Unix seconds, so any copy of the service can tell without shared state),
/// and the polling interval the provider asked for. Sealed with `SealedKind.deviceCode`,
/// so it never opens as a refresh token. Holds a live device code: no textual form shows
/// it.
package struct DeviceCodeEnvelope: Sendable, Equatable, CustomStringConvertible {
    package let deviceCode: String
    package let expiresAt: Int
    package let intervalSeconds: Int

    package var description: String {
        "DeviceCodeEnvelope(expiresAt: \(expiresAt), interval: \(intervalSeconds), code: <redacted>)"
    }

    /// The plaintext: a JSON object, so fields can be added without a format version.
    package var plaintext: String {
        String(
            decoding: JSONValue.object([
                .init("d", .string(deviceCode)), .init("e", .number(String(expiresAt))),
                .init("i", .number(String(intervalSeconds))),
            ]).serialized, as: UTF8.self)
    }

    /// The expiries a sealed code may carry: Unix seconds from the epoch to the end of
    /// year 9999. Both ends are far from `Int`'s, so `expiresAt - now()` cannot overflow.
    static let expiresAtRange = 0...253_402_300_799

    /// The intervals a sealed code may carry: what `DeviceAuthorizationAnswer` accepts from
    /// a provider, and what `DevicePollSchedule` raises an interval to at most.
    static let intervalRange = 1...DevicePollSchedule.longestIntervalSeconds

    /// nil when the opened bytes are not an envelope this service wrote (a key ring
    /// shared with a future format, say); the caller treats that like a bad seal. Numbers
    /// outside what this service writes are refused here rather than trusted: they reach
    /// clock arithmetic, and an envelope is only as trustworthy as every way it can open
    /// (CONTRACT §15).
    package init?(plaintext: [UInt8]) {
        guard let parsed = try? JSONParser.parse(plaintext),
            case .string(let code)? = parsed["d"], !code.isEmpty,
            case .number(let expiry)? = parsed["e"], let expiresAt = Int(expiry),
            Self.expiresAtRange.contains(expiresAt),
            case .number(let interval)? = parsed["i"], let intervalSeconds = Int(interval),
            Self.intervalRange.contains(intervalSeconds)
        else { return nil }
        self.init(deviceCode: code, expiresAt: expiresAt, intervalSeconds: intervalSeconds)
    }

    package init(deviceCode: String, expiresAt: Int, intervalSeconds: Int) {
        self.deviceCode = deviceCode
        self.expiresAt = expiresAt
        self.intervalSeconds = intervalSeconds
    }

    /// Wall-clock seconds: the expiry must mean the same on every copy of the service.
    static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int(time.tv_sec)
    }
}
