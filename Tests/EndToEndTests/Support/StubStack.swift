import Foundation
import Testing

/// A stub provider process and a `tokenswap serve` in front of it, configured as a
/// deployment would be (default provider `spotify`, client_secret_basic).
struct StubStack: Sendable {
    let stub: ProviderStub
    let server: TokenSwapProcess
    let deployment: Deployment
    let keys: String

    /// - Parameter stub: a stub already started (when `extra` needs its URLs), else a new one.
    static func start(
        stub: ProviderStub? = nil, tls: Bool = false, keys: String = Deployment.newKey("A"),
        extra: [String: String] = [:], deployment: Deployment = Deployment()
    ) async throws -> StubStack {
        let stub = if let stub { stub } else { try await ProviderStub.start(tls: tls) }
        let server = try await TokenSwapProcess.serve(
            environment: deployment.environment(
                tokenURL: stub.tokenURL(), keys: keys, extra: extra))
        return StubStack(stub: stub, server: server, deployment: deployment, keys: keys)
    }

    var port: UInt16 { server.port }

    /// Stops tokenswap (it must exit 0) and checks that neither process printed the
    /// secret, the keys, or any of `values` (codes, tokens the test used).
    func finish(
        secrets values: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Int32? {
        let status = try await server.stop()
        expectNoSecrets(
            in: [server.output, stub.errorOutput],
            [deployment.clientSecret] + Deployment.keyMaterial(keys) + values,
            sourceLocation: sourceLocation)
        return status
    }
}
