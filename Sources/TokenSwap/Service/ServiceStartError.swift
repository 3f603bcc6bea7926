import HTTPClient
import Transport

/// Why the service could not start once its configuration was valid. The texts name a
/// setting or an address, never a secret.
public enum ServiceStartError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The upstream client could not be built (e.g. `TOKENSWAP_CA_FILE` is not PEM).
    case upstreamClient(HTTPClientError)
    /// A listener could not be opened.
    case listen(host: String, port: UInt16, TransportError)

    public var description: String {
        switch self {
        case .upstreamClient(let error):
            "TOKENSWAP_CA_FILE or the system trust store cannot be loaded: \(error)"
        case .listen(let host, let port, let error): "cannot listen on \(host):\(port): \(error)"
        }
    }
}
