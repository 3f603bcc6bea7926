import Foundation
import Testing

/// One log line per request (method, path, status, duration; for token requests also the
/// provider and the upstream outcome), as JSON with TOKENSWAP_LOG_FORMAT=json, never a
/// code or token.
@Suite(.resourceClass(.processes)) struct LogLineTests {
    @Test func oneJSONLinePerRequest() async throws {
        let server = try await TokenSwapProcess.serve(
            ["--sandbox"], environment: ["TOKENSWAP_LOG_FORMAT": "json"])
        let code = try await SandboxFlowTests.authorize(server.port)
        let swap = try await Exchange.form("/v1/swap", port: server.port, [("code", code)])
        let sealed = try #require(swap.string("refresh_token"))
        let refresh = try await Exchange.form(
            "/v1/refresh", port: server.port, [("refresh_token", sealed)])
        let failed = try await Exchange.form(
            "/v1/swap", port: server.port, [("code", "sandbox-500")])
        _ = try await Exchange.request("GET", "/healthz", port: server.port)
        #expect(try await server.stop() == 0)

        let lines = server.standardOutput.split(separator: "\n").filter { $0.hasPrefix("{") }
        let objects = lines.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        #expect(objects.count == lines.count, "every log line is one JSON object")
        let requests = objects.filter { $0["path"] != nil }
        #expect(
            requests.map { "\($0["method"] ?? "") \($0["path"] ?? "") \($0["status"] ?? "")" } == [
                "GET /sandbox/authorize 302", "POST /v1/swap 200", "POST /v1/refresh 200",
                "POST /v1/swap 502", "GET /healthz 200",
            ])
        for object in requests {
            #expect(object["duration_ms"] != nil)
            #expect(object["time"] != nil)
        }
        let token = requests.filter { ($0["path"] as? String)?.hasPrefix("/v1/") == true }
        #expect(token.map { $0["outcome"] as? String } == ["ok", "ok", "upstream_error"])
        #expect(token.allSatisfy { $0["provider"] as? String == "spotify" })
        expectNoSecrets(
            in: [server.output],
            [
                code, sealed, swap.string("access_token") ?? "",
                refresh.string("access_token") ?? "",
                refresh.string("refresh_token") ?? "",
            ])
        #expect(failed.status == 502)
    }
}
