import ArgumentParser
import HTTPServer
import TokenSwap
import TokenSwapSandbox
import Transport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// `tokenswap serve`: load the configuration, assemble the service, listen, serve until
/// SIGTERM/SIGINT, drain, exit 0. A bad setting stops start-up with one line naming it.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the token swap service."
    )

    @Option(help: "A JSON configuration file; environment variables win over it.")
    var config: String?

    @Option(help: "Address to listen on; wins over TOKENSWAP_HOST. Default 0.0.0.0.")
    var host: String?

    @Option(help: "Port to listen on (0: any free port); wins over TOKENSWAP_PORT. Default 8080.")
    var port: UInt16?

    @Flag(help: "Answer token calls from an embedded FAKE provider. Never in production.")
    var sandbox = false

    @Option(help: "Seconds to let in-flight requests finish after SIGTERM/SIGINT (0 to 3600).")
    var drainSeconds: Double = ConfigurationDefaults.drainSeconds

    @Option(
        help: """
            Seconds /readyz answers 503 after SIGTERM/SIGINT before the listeners close, \
            so a load balancer stops sending first (0 to 3600).
            """)
    var unreadySeconds: Double = ConfigurationDefaults.unreadySeconds

    /// The options' ranges, refused in one line like a bad setting (an infinite or huge
    /// deadline would trap converting to a timer's nanoseconds after SIGTERM).
    func validate() throws {
        do {
            _ = try ConfigurationDefaults.drainSecondsRange.checked(
                drainSeconds, variable: "--drain-seconds")
            _ = try ConfigurationDefaults.unreadySecondsRange.checked(
                unreadySeconds, variable: "--unready-seconds")
        } catch {
            Self.fail("\(error)")
        }
    }

    func run() async throws {
        let loaded: ServiceConfiguration
        do {
            loaded = try await ServiceConfiguration.load(
                environment: ProcessInfo.processInfo.environment, configFile: config,
                sandbox: sandbox)
        } catch {
            Self.fail("\(error)")
        }
        // As many descriptors as the hard limit allows; the server keeps a reserve of them
        // free of client connections (OpenFileLimit.connectionCap).
        OpenFileLimit.raiseSoftLimitToHard()
        let serverConfiguration = ServerConfiguration()
        TokenSwapServer.bootstrapLogging(for: loaded)
        let service: TokenSwapServer
        let addresses: ServiceAddresses
        // Signals are ignored first so their default action (terminate) never runs; the
        // Dispatch sources still see them and start the drain.
        let stop = ShutdownSignal(signals: [SIGTERM, SIGINT])
        // With --sandbox, the fake provider answers every provider call in process and
        // serves its own endpoints (GET /sandbox/authorize, …) beside the service's.
        let fake = sandbox ? SandboxProvider(configuration: loaded) : nil
        do {
            service = try TokenSwapServer(
                configuration: loaded, serverConfiguration: serverConfiguration, transport: fake,
                extraRoutes: fake?.routes ?? [])
            addresses = try service.start(
                host: host ?? loaded.host, port: port ?? UInt16(clamping: loaded.port))
        } catch {
            Self.fail("\(error)")
        }
        service.bootstrapMetrics()
        if let fake {
            // On stderr: loud for a person at a terminal, and stdout's first line stays
            // the listening line that scripts wait for.
            let base = "http://\(Self.urlHost(addresses.main.host)):\(addresses.main.port)"
            fake.serve(at: base)
            Self.warn(
                SandboxBanner.text(
                    baseURL: base, defaultProvider: loaded.defaultProvider,
                    ephemeralKeys: loaded.ephemeralKeys))
        }
        Self.say("tokenswap listening on \(addresses.main)")
        if let admin = addresses.admin { Self.say("tokenswap admin listening on \(admin)") }
        let signal = await stop.wait()
        Self.say("tokenswap received \(signal == SIGTERM ? "SIGTERM" : "SIGINT"), draining")
        await service.drain(unreadySeconds: unreadySeconds, drainDeadlineSeconds: drainSeconds)
    }

    /// A host for a URL the banner prints: a wildcard address is reachable as localhost,
    /// an IPv6 literal needs brackets.
    static func urlHost(_ host: String) -> String {
        if host == "0.0.0.0" || host == "::" { return "localhost" }
        return host.contains(":") ? "[\(host)]" : host
    }

    /// One line to stdout through the log queue: written at once while stdout is read,
    /// and never able to block the drain when it is not (scripts wait for these lines).
    static func say(_ line: String) {
        LogLineQueue.standardOutput.enqueue("\(line)\n")
    }

    static func warn(_ text: String) {
        StandardStream.error.write("\(text)\n")
    }

    static func fail(_ line: String) -> Never {
        warn("tokenswap: \(line)")
        Glibc.exit(2)
    }
}
