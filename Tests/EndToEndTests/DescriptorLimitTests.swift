import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Client connections never take the descriptors provider calls and the admin port need
/// (issue 10: at `ulimit -n 48`, 37 idle connections turned every provider call into
/// `502 upstream_unreachable` and 38 stopped accepts, the admin port included).
@Suite(.resourceClass(.processes)) struct DescriptorLimitTests {
    /// A plain TCP connection that sends nothing; the caller closes it.
    static func idleConnection(port: UInt16) throws -> Int32 {
        try Loopback.connect(port: port)
    }

    @Test func idleClientsAtTheLimitLeaveProviderCallsAndTheAdminPortWorking() async throws {
        let stub = try await ProviderStub.start()
        let deployment = Deployment()
        let keys = Deployment.newKey("A")
        let server = try await TokenSwapProcess.serve(
            environment: deployment.environment(
                tokenURL: stub.tokenURL(), keys: keys, extra: ["TOKENSWAP_ADMIN_PORT": "0"]),
            fileLimit: 48)
        let adminPort = try #require(server.adminPort)
        // The issue's numbers: 37 idle connections took the last descriptor a provider
        // call needed. The kernel completes every handshake; the service takes what its
        // cap allows (48 - 24 reserved), the rest wait in the backlog.
        var idle: [Int32] = []
        defer { for fd in idle { close(fd) } }
        for _ in 0..<37 { idle.append(try Self.idleConnection(port: server.port)) }
        // Until the public listener has paused at its cap (the metric counts the pause).
        let pauses = #"tokenswap_http_rejections_total{reason="connection_cap"} "#
        try await pollUntil(every: .milliseconds(20)) {
            let metrics = try await Exchange.request("GET", "/metrics", port: adminPort).body
            return metrics.split(separator: "\n").contains {
                $0.hasPrefix(pauses) && (Double($0.dropFirst(pauses.count)) ?? 0) >= 1
            }
        }

        // The public port is at its cap; the admin port has a cap and descriptors of its
        // own, so the probe answers at once (not after idle clients time out at the 10 s
        // header deadline; 8 s is room for a loaded machine short of that).
        let probe = Array("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
        let health = try await Exchange.send(probe, port: adminPort, timeoutSeconds: 8)
        #expect(health.status == 200)
        let metrics = try await Exchange.request("GET", "/metrics", port: adminPort)
        #expect(metrics.body.contains(#"tokenswap_http_rejections_total{reason="connection_cap"}"#))

        // A swap waits in the backlog; when 20 idle clients leave it is served and the
        // provider call finds a descriptor: 200, never 502 upstream_unreachable.
        try await stub.answer(
            status: 200,
            body: #"{"access_token":"at-1","token_type":"Bearer","expires_in":3600}"#)
        // Connected (into the backlog) and sent before the idle clients leave.
        let swap = try RawClient(port: server.port, receiveTimeoutSeconds: 60)
        let form = "code=c-1"
        try await swap.send(
            "POST /v1/swap HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(form.utf8.count)\r\n\r\n" + form)
        for fd in idle.prefix(20) { close(fd) }
        idle.removeFirst(20)
        let answer = try await swap.readResponse()
        #expect(answer.statusCode == 200)
        #expect(try await server.stop() == 0)
    }
}
