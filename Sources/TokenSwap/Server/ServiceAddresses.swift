import Transport

/// Where a started service listens.
public struct ServiceAddresses: Sendable {
    /// Token endpoints (and the operations endpoints unless `admin` is set).
    public let main: SocketAddress
    /// `TOKENSWAP_ADMIN_PORT`'s listener, serving only the operations endpoints.
    public let admin: SocketAddress?
}
