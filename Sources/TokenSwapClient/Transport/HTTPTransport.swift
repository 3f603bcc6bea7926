import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How the client kit reaches the network: tokenswap's endpoints and the app's own API.
/// `URLSessionTransport` is the ordinary one; an app can bring its own stack and a test
/// its own answers. A failure to get any answer (DNS, connect, TLS, timeout) is thrown;
/// every HTTP answer, whatever its status, is returned.
public protocol HTTPTransport: Sendable {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}
