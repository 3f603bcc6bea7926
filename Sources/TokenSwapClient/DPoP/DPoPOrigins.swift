import Foundation

/// What the kit learnt from each server it proves to, by origin (scheme, host and port: a
/// nonce is the server's, not an endpoint's), shared by every copy of a
/// `TokenSwapBackend`:
///
/// - the newest `DPoP-Nonce` (RFC 9449 §8), which goes only back to the origin that
///   issued it;
/// - how far the server's clock (its `Date` header) is from the device's, so that a proof's
///   `iat` is in the server's window (CONTRACT §13: at most 60 s old, 10 s ahead) on a
///   device whose clock is minutes off (RFC 9449 §11.1). Under `toleratedSkewSeconds` the
///   device's own clock is used as it is.
actor DPoPOrigins {
    private struct Seen {
        var nonce: String?
        var clockOffsetSeconds: Double = 0
    }

    private var seen: [String: Seen] = [:]
    /// Origins in the order they were last heard from, oldest first; beyond
    /// `maximumOrigins` the oldest is forgotten, so a backend that is handed ever new URLs
    /// does not grow without bound.
    private var order: [String] = []
    static let maximumOrigins = 16
    /// Longer values are not kept (tokenswap's are far shorter); they are not a nonce this
    /// kit would send back.
    static let maximumNonceLength = 512
    /// A `Date` header has whole seconds and arrives after a round trip: a difference this
    /// small is that, not a wrong clock.
    static let toleratedSkewSeconds: Double = 5

    func nonce(for url: URL) -> String? {
        Self.origin(url).flatMap { seen[$0]?.nonce }
    }

    /// Seconds to add to the device's wall clock for a proof to this origin.
    func clockOffsetSeconds(for url: URL) -> Double {
        Self.origin(url).flatMap { seen[$0]?.clockOffsetSeconds } ?? 0
    }

    /// Keeps `value` for `url`'s origin when it is a nonce by RFC 9449 §8.1's grammar
    /// (`1*NQCHAR`: visible ASCII without `"` and `\`); anything else is ignored.
    func remember(nonce value: String, for url: URL) {
        guard Self.isNonce(value) else { return }
        update(url) { $0.nonce = value }
    }

    /// The server said it was `serverTime` when the device's wall clock read `localTime`.
    func remember(serverTime: Double, localTime: Double, for url: URL) {
        let offset = serverTime - localTime
        guard offset.isFinite else { return }
        update(url) { $0.clockOffsetSeconds = abs(offset) < Self.toleratedSkewSeconds ? 0 : offset }
    }

    private func update(_ url: URL, _ change: (inout Seen) -> Void) {
        guard let origin = Self.origin(url) else { return }
        change(&seen[origin, default: Seen()])
        order.removeAll { $0 == origin }
        order.append(origin)
        while order.count > Self.maximumOrigins {
            seen[order.removeFirst()] = nil
        }
    }

    static func isNonce(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= maximumNonceLength
            && value.utf8.allSatisfy {
                (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
            }
    }

    /// `scheme://host:port`, lower-cased, the port filled in for http and https.
    static func origin(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
            return nil
        }
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }
}
