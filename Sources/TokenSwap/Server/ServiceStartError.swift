import RESPClient
import HTTPClient
import TLS
import Transport

/// Why the service could not start once its configuration was valid. The texts name a
/// setting or an address, never a secret.
package enum ServiceStartError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The upstream client could not be built (e.g. `TOKENSWAP_CA_FILE` is not PEM).
    case upstreamClient(HTTPClientError)
    /// A listener could not be opened.
    case listen(host: String, port: UInt16, TransportError)
    /// The TLS pair could not be loaded (it changed since the configuration was checked).
    case tls(TLSFailure)
    /// The state store's client could not be built (`rediss://` and a trust store or
    /// `TOKENSWAP_CA_FILE` that does not load). A store that does not answer is no start
    /// error (CONTRACT §12).
    case stateStore(RESPError)

    package var description: String {
        switch self {
        case .upstreamClient(let error):
            "TOKENSWAP_CA_FILE or the system trust store cannot be loaded: \(error)"
        case .listen(let host, let port, let error): "cannot listen on \(host):\(port): \(error)"
        case .tls(let failure): "TOKENSWAP_TLS_CERT_FILE / TOKENSWAP_TLS_KEY_FILE: \(failure)"
        case .stateStore(let error): "TOKENSWAP_STATE_URL: \(error)"
        }
    }
}
