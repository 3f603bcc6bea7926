import Foundation
import HTTPCore
import HTTPServer
import Testing

@Suite struct ConnectionTests {
    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        try await TestServer.with { _, port in
            let client = try RawClient(port: port)
            for _ in 0..<3 {
                try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = try client.readResponse()
                #expect(response.statusCode == 200)
                #expect(response.bodyText == "hello")
                #expect(response.header("Connection") == nil)
                #expect(response.header("Content-Length") == "5")
            }
        }
    }
}
