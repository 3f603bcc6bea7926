import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Operations endpoints, the admin port, and the drain on SIGTERM/SIGINT.
// Serialized: each test starts processes; the whole test run shares a 2-core machine with
// timing-sensitive suites, so the cases of a table go one after another, not all at once.
@Suite(.serialized, .resourceClass(.processes)) struct LifecycleTests {
    static func sandbox(_ arguments: [String] = [], admin: Bool = false) async throws
        -> TokenSwapProcess
    {
        try await TokenSwapProcess.serve(
            ["--sandbox"] + arguments, environment: admin ? ["TOKENSWAP_ADMIN_PORT": "0"] : [:])
    }

    @Test func readyzTurns503WhileDrainingThenTheProcessExitsZero() async throws {
        // A grace long enough that a loaded machine still sees it (3 s was not, once: a
        // stall of a few seconds ended the grace before the health check below); the
        // signal is handled on its own thread, so the first answers after it may still
        // say ready.
        let server = try await Self.sandbox(["--unready-seconds", "8"])
        let ready = try await Exchange.request("GET", "/readyz", port: server.port)
        #expect(ready.status == 200)
        #expect(ready.body == #"{"status":"ready"}"#)
        server.signal(SIGTERM)
        var draining = try await Exchange.request("GET", "/readyz", port: server.port)
        try await pollUntil(every: .milliseconds(50)) {
            draining = try await Exchange.request("GET", "/readyz", port: server.port)
            return draining.status != 200
        }
        #expect(draining.status == 503)
        #expect(draining.error == "draining")
        #expect(draining.header("Content-Type") == "application/json")
        // Still alive, and still serving tokens, until the grace ends.
        let health = try await Exchange.request("GET", "/healthz", port: server.port)
        #expect(health.status == 200)
        #expect(try await server.exitStatus(withinSeconds: 20) == 0)
        await #expect(throws: (any Error).self) {
            _ = try await Exchange.request("GET", "/healthz", port: server.port)
        }
    }

    @Test func sigintAlsoDrainsAndExitsZero() async throws {
        let server = try await Self.sandbox()
        #expect(try await Exchange.request("GET", "/healthz", port: server.port).status == 200)
        server.signal(SIGINT)
        #expect(try await server.exitStatus(withinSeconds: 30) == 0)
        #expect(server.standardOutput.contains("received SIGINT"))
    }

    @Test func adminPortServesOperationsEndpointsOffTheMainPort() async throws {
        let server = try await Self.sandbox(admin: true)
        let admin = try #require(server.adminPort)
        #expect(admin != server.port)
        for path in ["/healthz", "/readyz"] {
            #expect(try await Exchange.request("GET", path, port: admin).status == 200)
            let main = try await Exchange.request("GET", path, port: server.port)
            #expect(main.status == 404, "\(path) is not on the main port")
        }
        // Token endpoints are not on the admin port.
        let swap = try await Exchange.form("/v1/swap", port: admin, [("code", "sandbox-invalid")])
        #expect(swap.status == 404)
        let onMain = try await Exchange.form(
            "/v1/swap", port: server.port, [("code", "sandbox-invalid")])
        #expect(onMain.status == 400)
        #expect(try await server.stop() == 0)
    }
}
