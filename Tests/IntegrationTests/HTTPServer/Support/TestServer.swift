import Dispatch
import HTTPCore
import HTTPServer
import Transport

/// Starts an `HTTPServer` on 127.0.0.1 with an ephemeral port and a few routes whose
/// behaviour the tests can observe (echo, spin, throw), runs `body`, then shuts down.
enum TestServer {
    static func router() -> Router {
        Router(routes)
    }

    static let routes: [Route<HTTPHandler>] = [
        Route(.get, "/hello") { _, _ in
            HTTPResponse(
                status: .ok, headers: HTTPHeaders([("Content-Type", "text/plain")]),
                body: Array("hello".utf8))
        },
        Route(.post, "/echo") { request, _ in
            var headers = HTTPHeaders([("Content-Type", "application/octet-stream")])
            headers.add(name: "X-Peer", value: request.remoteAddress ?? "none")
            return HTTPResponse(status: .ok, headers: headers, body: request.body)
        },
        // Computes (never awaits) for the milliseconds in the query: a CPU-bound handler.
        Route(.get, "/spin") { request, _ in
            let until = ContinuousClock.now + .milliseconds(Int(request.query ?? "0") ?? 0)
            var turns = 0
            while ContinuousClock.now < until { turns &+= 1 }
            return HTTPResponse(status: .ok, body: Array("spun".utf8))
        },
        Route(.get, "/throw") { _, _ in
            struct SecretFailure: Error {}
            throw SecretFailure()
        },
        // A handler that answers before it returns.
        Route(
            .get, "/respond-now",
            handler: HTTPHandler { request, _, respond in
                respond(HTTPResponse(status: .ok, body: Array("now \(request.query ?? "")".utf8)))
            }),
        // A handler that answers later, from a thread that is not the loop's.
        Route(
            .get, "/respond-elsewhere",
            handler: HTTPHandler { request, _, respond in
                let label = request.query ?? ""
                DispatchQueue.global().async {
                    respond(HTTPResponse(status: .ok, body: Array("elsewhere \(label)".utf8)))
                }
            }),
        // A big body, for the write deadline with a client that never reads.
        Route(.get, "/big") { _, _ in
            HTTPResponse(status: .ok, body: [UInt8](repeating: 0x61, count: 8 * 1024 * 1024))
        },
    ]

    /// Errors as `{"error":…,"error_description":…}`, the shape the product injects, so
    /// the tests can read which error the server chose.
    static let jsonResponder: ErrorResponder = { error, _ in
        HTTPResponse(
            status: error.status, headers: HTTPHeaders([("Content-Type", "application/json")]),
            body: Array(
                #"{"error":"\#(error.code)","error_description":"\#(error.errorDescription)"}"#
                    .utf8))
    }

    /// The configuration the tests start from: two loops, the JSON error responder.
    static func configuration() -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.loopCount = 2
        configuration.errorResponder = jsonResponder
        return configuration
    }

    static func with(
        _ configure: (inout ServerConfiguration) -> Void = { _ in },
        router: Router = router(),
        _ body: (HTTPServer, UInt16) async throws -> Void
    ) async throws {
        var configuration = configuration()
        configure(&configuration)
        let server = HTTPServer(configuration: configuration, router: router)
        let address = try server.start(host: "127.0.0.1", port: 0)
        do {
            try await body(server, address.port)
        } catch {
            await server.shutdown(drainDeadlineSeconds: 0)
            throw error
        }
        await server.shutdown(drainDeadlineSeconds: 1)
    }
}
