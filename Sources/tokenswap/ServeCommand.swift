import ArgumentParser
import Dispatch
import Foundation
import HTTPCore
import HTTPServer
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// `tokenswap serve`: listen, serve until SIGTERM/SIGINT, drain, exit 0.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the token swap service."
    )

    @Option(help: "Address to listen on (env TOKENSWAP_HOST). Default 0.0.0.0.")
    var host: String?

    @Option(help: "Port to listen on (env TOKENSWAP_PORT). Default 8080.")
    var port: UInt16?

    @Option(help: "Seconds to let in-flight requests finish after SIGTERM/SIGINT.")
    var drainSeconds: Double = 10

    /// `ServerConfiguration.handlersRunOnLoop`; hidden: a knob for scripts/bench.d/server.
    @Flag(help: .hidden)
    var handlersOnLoop = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let host = host ?? environment["TOKENSWAP_HOST"] ?? "0.0.0.0"
        let port = port ?? Self.port(from: environment["TOKENSWAP_PORT"])

        var configuration = ServerConfiguration()
        configuration.handlersRunOnLoop = handlersOnLoop
        let server = HTTPServer(configuration: configuration, router: Self.router())
        // Signals are ignored first so their default action (terminate) never runs; the
        // Dispatch sources still see them and start the drain.
        let stop = ShutdownSignal(signals: [SIGTERM, SIGINT])
        let address: SocketAddress
        do {
            address = try server.start(host: host, port: port)
        } catch {
            Self.fail("cannot listen on \(host):\(port): \(error)")
        }
        Self.say("tokenswap listening on \(address)")
        let signal = await stop.wait()
        Self.say("tokenswap received \(signal == SIGTERM ? "SIGTERM" : "SIGINT"), draining")
        await server.shutdown(drainDeadlineSeconds: drainSeconds)
    }

    static func router() -> Router {
        var router = Router()
        router.get("/healthz") { _ in
            HTTPResponse(
                status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]),
                body: Array(#"{"status":"ok"}"#.utf8))
        }
        return router
    }

    static func port(from text: String?) -> UInt16 {
        guard let text else { return 8080 }
        guard let port = UInt16(text), text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            fail("TOKENSWAP_PORT is not a port number (0-65535)")
        }
        return port
    }

    /// One line straight to stdout (unbuffered: scripts and tests wait for it).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data("\(line)\n".utf8))
    }

    static func fail(_ line: String) -> Never {
        FileHandle.standardError.write(Data("tokenswap: \(line)\n".utf8))
        Foundation.exit(2)
    }
}
