/// What a session keeps between launches: the refresh token, and what it needs to know
/// about it before it sends it anywhere: when the grant ends (CONTRACT §14) and which
/// DPoP key it is bound to (§13). Prints and dumps without the token or the thumbprint.
public struct StoredCredentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    public var refreshToken: RedactedToken
    /// When the grant ends, in seconds since 1970 on this device's clock (the answer's
    /// `refresh_token_expires_in` counted from its arrival); nil when no answer said.
    public var grantExpiresAtEpochSeconds: Int?
    /// The RFC 7638 thumbprint of the DPoP key the refresh token was obtained with, and so
    /// is bound to; nil when it was obtained without a proof.
    public var dpopKeyThumbprint: String?

    public init(
        refreshToken: RedactedToken, grantExpiresAtEpochSeconds: Int? = nil,
        dpopKeyThumbprint: String? = nil
    ) {
        self.refreshToken = refreshToken
        self.grantExpiresAtEpochSeconds = grantExpiresAtEpochSeconds
        self.dpopKeyThumbprint = dpopKeyThumbprint
    }

    public var description: String {
        "StoredCredentials(refresh_token: <redacted>, grant_expires_at: "
            + (grantExpiresAtEpochSeconds.map(String.init) ?? "unknown")
            + ", dpop: \(dpopKeyThumbprint == nil ? "no" : "bound"))"
    }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "refreshToken": refreshToken,
                "grantExpiresAtEpochSeconds": grantExpiresAtEpochSeconds as Any,
                "dpopBound": dpopKeyThumbprint != nil,
            ], displayStyle: .struct)
    }

    // MARK: - As text

    /// The text `FileCredentialStore` and `KeychainCredentialStore` keep: the refresh token
    /// on the first line (all that earlier versions kept, so their files and items still
    /// load), then one `name value` line per member that is set.
    var encoded: String {
        var text = refreshToken.revealed + "\n"
        if let grantExpiresAtEpochSeconds {
            text += "\(Self.grantExpiresAtName) \(grantExpiresAtEpochSeconds)\n"
        }
        if let dpopKeyThumbprint { text += "\(Self.dpopKeyThumbprintName) \(dpopKeyThumbprint)\n" }
        return text
    }

    /// nil when there is no token. A line that is not one of ours, or whose value is out of
    /// shape, is skipped: a damaged line costs what it said, never the token.
    init?(decoding text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard
            let token = lines.popFirst()?.trimmingCharacters(in: .whitespacesAndNewlines),
            !token.isEmpty
        else { return nil }
        self.init(refreshToken: RedactedToken(token))
        for line in lines {
            let parts = line.trimmingCharacters(in: .whitespacesAndNewlines)
                .split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case Self.grantExpiresAtName:
                // Seconds since 1970 before the year 5000: anything else is damage.
                if let seconds = Int(parts[1]), (0...95_617_584_000).contains(seconds) {
                    grantExpiresAtEpochSeconds = seconds
                }
            case Self.dpopKeyThumbprintName:
                // A SHA-256 thumbprint is 32 bytes, 43 base64url characters.
                if parts[1].utf8.count == 43, Base64URL.decode(parts[1])?.count == 32 {
                    dpopKeyThumbprint = String(parts[1])
                }
            default:
                continue
            }
        }
    }

    private static let grantExpiresAtName = "grant-expires-at"
    private static let dpopKeyThumbprintName = "dpop-jkt"
}
