import Foundation

/// A real-looking configuration for one provider in front of a stub: fresh random
/// secret and key per test, so a value found in any output can only have come from it.
struct Deployment: Sendable {
    static let clientID = "e2e-client"
    static let redirectURI = "myapp://callback"
    static let allowedRedirectURI = "myapp://other"

    let clientSecret = "secret-" + Deployment.random(24)

    /// `kid:key` with 32 random bytes, base64url without padding.
    static func newKey(_ kid: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let text = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return "\(kid):\(text)"
    }

    static func random(_ count: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in alphabet.randomElement(using: &generator) ?? "x" })
    }

    /// The environment of a default (`spotify`) provider at `tokenURL`.
    func environment(tokenURL: String, keys: String, extra: [String: String] = [:]) -> [String:
        String]
    {
        var environment = [
            "TOKENSWAP_CLIENT_ID": Self.clientID,
            "TOKENSWAP_CLIENT_SECRET": clientSecret,
            "TOKENSWAP_REDIRECT_URI": Self.redirectURI,
            "TOKENSWAP_REDIRECT_URIS": Self.allowedRedirectURI,
            "TOKENSWAP_TOKEN_URL": tokenURL,
            "TOKENSWAP_ENCRYPTION_KEYS": keys,
            "TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS": "5",
        ]
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Key material as it must never appear: the base64url key of each `kid:key` entry.
    static func keyMaterial(_ keys: String) -> [String] {
        keys.split(separator: ",").compactMap { $0.split(separator: ":").last.map(String.init) }
    }
}
