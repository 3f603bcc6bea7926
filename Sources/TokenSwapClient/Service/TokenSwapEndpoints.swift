import Foundation

/// Where one provider's endpoints live on a tokenswap deployment (CONTRACT §2, §7, §8):
/// `<base>/v1/<name>/swap`, `/refresh`, `/device/code`, `/device/token`, `/revoke`,
/// `/introspect`, or `<base>/v1/…` for the default provider.
public struct TokenSwapEndpoints: Sendable, Hashable {
    public let baseURL: URL
    /// nil: the deployment's default provider.
    public let provider: String?

    /// `baseURL` may carry a path (a deployment behind `https://api.example.com/auth`).
    /// Throws `invalidConfiguration` for a provider name that is not `[a-z0-9-]{1,32}`
    /// (CONTRACT §3), which no deployment could serve.
    public init(baseURL: URL, provider: String? = nil) throws {
        if let provider {
            let allowed = provider.utf8.allSatisfy {
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "-")
            }
            guard allowed, (1...32).contains(provider.utf8.count) else {
                throw TokenSwapClientError.invalidConfiguration("provider name \(provider)")
            }
        }
        guard baseURL.scheme == "https" || baseURL.scheme == "http" else {
            throw TokenSwapClientError.invalidConfiguration("base URL must be http or https")
        }
        self.baseURL = baseURL
        self.provider = provider
    }

    public var swap: URL { url("swap") }
    public var refresh: URL { url("refresh") }
    public var deviceCode: URL { url("device/code") }
    public var deviceToken: URL { url("device/token") }
    public var revoke: URL { url("revoke") }
    public var introspect: URL { url("introspect") }

    private func url(_ endpoint: String) -> URL {
        let prefix = provider.map { "v1/\($0)" } ?? "v1"
        return baseURL.appendingPathComponent(prefix + "/" + endpoint)
    }
}
