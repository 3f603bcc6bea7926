import Foundation
import Testing

/// Absolute-form targets are parsed strictly (RFC 9112 §3.2.2): each of these was once
/// routed to the path hidden after the authority (an operations endpoint or a token
/// route); now each is a 400 and runs nothing.
@Suite(.resourceClass(.processes)) struct AbsoluteFormTests {
    static let targets = [
        ("GET", "http://a?b/healthz"), ("GET", "http://a#/metrics"), ("POST", "x:/v1/swap"),
        ("GET", "http://u@a/healthz"),
    ]

    @Test func lenientAbsoluteFormsAreBadRequests() async throws {
        let server = try await OperationsTests.sandbox([:])
        for (method, target) in Self.targets {
            let answer = try await Exchange.request(
                method, target, port: server.port,
                headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: method == "POST" ? "code=sandbox-invalid" : nil)
            #expect(answer.status == 400, "\(method) \(target): \(answer)")
        }
        // The strict form itself is served.
        let strict = try await Exchange.request(
            "GET", "http://a.example/healthz", port: server.port)
        #expect(strict.status == 200)
        #expect(try await server.stop() == 0)
    }
}
