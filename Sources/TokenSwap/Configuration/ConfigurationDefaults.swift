import HTTPServer

/// Every default of CONTRACT §5 in one place, each with its unit in the name.
package enum ConfigurationDefaults {
    package static let host = "0.0.0.0"
    package static let port = 8080
    package static let providerName = "spotify"
    package static let logLevel = LogLevelSetting.info
    package static let logFormat = LogFormat.text
    package static let upstreamTimeoutSeconds = 10.0
    /// 0 turns the limiter off.
    package static let rateLimitPerSecond = 0.0
    /// `/introspect` per client address per minute (CONTRACT §8); a resource server checks
    /// a token once per request at most, a scanner guesses thousands.
    package static let introspectionRateLimitPerMinute = 60
    /// Failed legacy opens per minute per client (CONTRACT §9); 0 turns it off. A user
    /// retries a dead token a few times; probing an unauthenticated format takes thousands.
    package static let legacyFailureLimitPerMinute = 10
    package static let legacyFailureLimitPerMinuteRange = SettingRange(
        1...1_000_000, expected: "failures per minute, 0 (off) or 1 to 1000000", alsoAllowed: 0)
    /// `/device/code` calls per minute per client (CONTRACT §7); 0 turns it off.
    package static let deviceRateLimitPerMinute = 10.0
    /// Clients behind one IPv6 prefix of this length share a rate-limit bucket: a /64 is
    /// what one subscriber or host gets (RFC 6177), and rotating addresses inside it is free.
    package static let rateLimitIPv6PrefixLength = 64
    /// Seconds in-flight requests get after SIGTERM/SIGINT (`serve --drain-seconds`).
    package static let drainSeconds = 10.0
    /// Seconds `/readyz` answers 503 before the listeners close (`serve --unready-seconds`).
    package static let unreadySeconds = 0.0

    // The documented range of every numeric setting (README, settings table).

    /// Longest upstream deadline accepted; a longer one would hold connections open
    /// beyond any client's patience. The shortest is a millisecond, the timer's grain.
    package static let upstreamTimeoutSecondsRange = SettingRange(
        0.001...300, expected: "seconds from 0.001 to 300")
    /// A slower rate than one request per 1000 s makes `Retry-After` meaningless; a
    /// faster one than a million per second is no limit on one process.
    package static let rateLimitPerSecondRange = SettingRange(
        0.001...1_000_000, expected: "requests per second, 0 (off) or 0.001 to 1000000",
        alsoAllowed: 0)
    package static let rateLimitBurstRange = SettingRange(
        1...1_000_000, expected: "a whole number of requests from 1 to 1000000")
    /// Shorter than /32 would put whole ISPs in one bucket (RFC 6177 assigns /48 to a site).
    package static let rateLimitIPv6PrefixLengthRange = SettingRange(
        32...128, expected: "an IPv6 prefix length from 32 to 128")
    /// Request bytes being read, over all connections: the server's own default
    /// (`ServerConfiguration`), declared once there; at least one whole body.
    package static let maxBodyBytesInFlight = ServerConfiguration().maxBodyBytesInFlight
    package static let maxBodyBytesInFlightRange = SettingRange(
        65_536...1_073_741_824, expected: "bytes from 65536 to 1073741824")
    /// Connections one client may hold; 0 = no cap (behind a proxy every client has the
    /// proxy's address). The server's own default, declared once there.
    package static let maxConnectionsPerClient = ServerConfiguration().maxConnectionsPerClient
    package static let maxConnectionsPerClientRange = SettingRange(
        1...1_000_000, expected: "a whole number of connections, 0 (no cap) or 1 to 1000000",
        alsoAllowed: 0)
    /// An hour: longer than any orchestrator waits after SIGTERM before SIGKILL.
    package static let drainSecondsRange = SettingRange(
        0...3600, expected: "seconds from 0 to 3600")
    package static let unreadySecondsRange = SettingRange(
        0...3600, expected: "seconds from 0 to 3600")
    /// `TOKENSWAP_STATE_TIMEOUT_MS` (CONTRACT §12): a store on the same network answers in
    /// well under a millisecond; a call slower than this counts as the store failing.
    package static let stateTimeoutMilliseconds = 100
    /// A millisecond (the timer's grain) to ten seconds: a longer wait on the store would
    /// hold a refresh past any client's patience.
    package static let stateTimeoutMillisecondsRange = SettingRange(
        1...10_000, expected: "milliseconds from 1 to 10000")
    package static let stateFailure = StateFailureMode.open
    /// CONTRACT §12: a refresh's answer is replayed to a repeat within this many seconds
    /// (a phone retrying after a lost answer does so within seconds); 0 turns it off. At
    /// most ten minutes: a kept answer holds a live access token.
    package static let refreshReplaySeconds = 60
    package static let refreshReplaySecondsRange = SettingRange(
        1...600, expected: "seconds, 0 (off) or 1 to 600", alsoAllowed: 0)
    /// CONTRACT §12: replay entries one copy keeps (about 800 refreshes a second in a 60 s
    /// window); the oldest is evicted first.
    package static let refreshReplayMaxEntries = 50_000
    package static let refreshReplayMaxEntriesRange = SettingRange(
        1...10_000_000, expected: "a whole number of entries from 1 to 10000000")
    /// With `--sandbox`, when no redirect URI is configured: a custom scheme, as a mobile
    /// app registers, so nothing on the machine receives the redirect.
    package static let sandboxRedirectURI = "tokenswap-sandbox://callback"
    /// With `--sandbox`, a provider's client id when none is configured: one per provider,
    /// so the sandbox can tell which provider's client is calling.
    package static func sandboxClientID(provider name: String) -> String { "sandbox-\(name)" }
}
