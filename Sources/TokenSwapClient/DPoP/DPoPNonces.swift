import Foundation

/// The newest `DPoP-Nonce` each server gave (RFC 9449 §8), by origin (scheme, host and
/// port: a nonce is the server's, not an endpoint's), shared by every copy of a
/// `TokenSwapBackend`. A nonce goes only back to the origin that issued it.
actor DPoPNonces {
    private var newest: [String: String] = [:]
    /// Origins in the order their nonce last changed, oldest first; beyond
    /// `maximumOrigins` the oldest is forgotten, so a backend that is handed ever new
    /// URLs does not grow without bound.
    private var order: [String] = []
    static let maximumOrigins = 16
    /// Longer values are not kept (tokenswap's are far shorter); they are not a nonce this
    /// kit would send back.
    static let maximumLength = 512

    func nonce(for url: URL) -> String? {
        Self.origin(url).flatMap { newest[$0] }
    }

    /// Keeps `value` for `url`'s origin when it is a nonce by RFC 9449 §8.1's grammar
    /// (`1*NQCHAR`: visible ASCII without `"` and `\`); anything else is ignored.
    func remember(_ value: String, for url: URL) {
        guard let origin = Self.origin(url), Self.isNonce(value) else { return }
        newest[origin] = value
        order.removeAll { $0 == origin }
        order.append(origin)
        while order.count > Self.maximumOrigins {
            newest[order.removeFirst()] = nil
        }
    }

    static func isNonce(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= maximumLength
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
