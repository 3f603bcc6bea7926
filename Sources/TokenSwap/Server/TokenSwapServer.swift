import HTTPClient
import HTTPServer
import Logging
import Synchronization
import TLS
import Transport

/// The whole product assembled from a loaded `ServiceConfiguration`: the upstream
/// transport (the real `HTTPClient` unless the caller hands in another, as `serve
/// --sandbox` does with the `TokenSwapSandbox` fake), the grant routes, the operations
/// endpoints, any extra routes of the caller, and the HTTP server that serves them. Commands stay thin: load the configuration, `init`, `start`, wait for a
/// signal, `drain`.
///
/// Every endpoint is wrapped by `RequestPipeline.wrap`: the one place for per-request
/// behaviour (logging, metrics, CORS, rate limits, request ids); the pipeline also shapes
/// the errors the server answers itself.
package final class TokenSwapServer: Sendable {
    package let configuration: ServiceConfiguration
    package let logger: Logger
    package let server: HTTPServer
    package let readiness: Readiness
    package let pipeline: RequestPipeline
    /// Served by `GET /metrics`; also the server's observer.
    package let metrics: ServiceMetrics
    /// The real upstream client; nil when the caller handed in the transport.
    let client: HTTPClient?
    /// Only the operations endpoints, for `TOKENSWAP_ADMIN_PORT`; nil when they are
    /// served on the main port.
    let adminRouter: Router?
    /// Reloads the main port's TLS pair on SIGHUP and file change; nil without TLS.
    let tlsReloader: TLSCertificateReloader?
    /// The state the features share (CONTRACT §12).
    package let state: ServiceState

    /// - Parameters:
    ///   - serverConfiguration: limits and deadlines of the HTTP server.
    ///   - transport: where provider calls go; nil: a real `HTTPClient` on the server's
    ///     loops (with `configuration.caFile`), shut down by `drain`.
    ///   - extraRoutes: served on the main port beside the grant routes, through the same
    ///     pipeline (the sandbox's provider endpoints).
    ///   - logWrite: where log lines go (stdout in the binary).
    package init(
        configuration: ServiceConfiguration,
        serverConfiguration: ServerConfiguration = ServerConfiguration(),
        transport: (any UpstreamTransport)? = nil, extraRoutes: [ServiceRoute] = [],
        logWrite: @escaping @Sendable (String) -> Void = ServiceLogHandler.standardOutput
    ) throws(ServiceStartError) {
        self.configuration = configuration
        let logger = Self.logger(for: configuration, write: logWrite)
        self.logger = logger
        // One set of loops for the server and the upstream client: a handler running on a
        // loop then finds that loop's pooled upstream connections without a thread hop.
        let group = EventLoopGroup(loopCount: serverConfiguration.loopCount)
        let upstream: any UpstreamTransport
        if let transport {
            self.client = nil
            upstream = transport
        } else {
            var clientConfiguration = HTTPClientConfiguration()
            clientConfiguration.extraCAFilePath = configuration.caFile
            let client: HTTPClient
            do {
                client = try HTTPClient(configuration: clientConfiguration, eventLoopGroup: group)
            } catch {
                throw .upstreamClient(error)
            }
            self.client = client
            upstream = client
        }
        let metrics = ServiceMetrics()
        self.metrics = metrics
        // Process-wide (a refresh of one token may reach any loop); its waiters' timers run
        // on the loops that serve the requests. Shared by every copy when
        // TOKENSWAP_STATE_URL is set.
        let state = try Self.state(
            for: configuration, group: group, logger: logger, metrics: metrics)
        self.state = state
        let tokens = GrantEndpoints(
            configuration: configuration, transport: upstream, logger: logger, metrics: metrics,
            state: state.store, limitsIn: state.failover)
        let readiness = Readiness(stateStore: state.failover)
        self.readiness = readiness
        let pipeline = Self.pipeline(
            for: configuration, logger: logger, metrics: metrics, sharedState: state.failover)
        self.pipeline = pipeline

        let tokenRoutes = tokens.routes(for: configuration)
        let routes =
            tokenRoutes + Self.preflightRoutes(for: tokenRoutes, pipeline.cors)
            + Self.operationsRoutes(readiness, metrics) + extraRoutes
            + Self.discoveryRoutes(configuration)
        let separateAdmin = configuration.adminPort != nil
        let onAdmin = { (route: ServiceRoute) in separateAdmin && route.handler.kind == .operations
        }
        let main = Router(routes.filter { !onAdmin($0) }.map(pipeline.wrap))
        let admin = Router(routes.filter(onAdmin).map(pipeline.wrap))
        self.adminRouter = separateAdmin ? admin : nil
        var serverConfiguration = serverConfiguration
        if let tls = configuration.tls {
            let store: TLSServerContextStore
            do {
                store = try TLSServerContextStore(
                    certificateChainFile: tls.certificateChainFile, keyFile: tls.keyFile)
            } catch {
                throw .tls(error)
            }
            serverConfiguration.tls = store
            metrics.tlsCertificateServed(notAfterSeconds: store.context.notAfterSeconds)
            self.tlsReloader = TLSCertificateReloader(
                store: store, logger: logger, metrics: metrics)
        } else {
            self.tlsReloader = nil
        }
        serverConfiguration.observer = metrics
        serverConfiguration.errorResponder = pipeline.errorResponder
        serverConfiguration.maxBodyBytesInFlight = configuration.maxBodyBytesInFlight
        serverConfiguration.maxConnectionsPerClient = configuration.maxConnectionsPerClient
        serverConfiguration.clientIPv6PrefixLength = configuration.rateLimitIPv6PrefixLength
        self.server = HTTPServer(configuration: serverConfiguration, router: main, group: group)
        metrics.attach(server)
    }

    /// Opens the listeners: `host:port`, and the admin port on the same host when
    /// configured. Port 0 means any free port.
    package func start(host: String, port: UInt16) throws(ServiceStartError) -> ServiceAddresses {
        let main: SocketAddress
        do {
            main = try server.start(host: host, port: port)
        } catch {
            throw .listen(host: host, port: port, error)
        }
        var admin: SocketAddress?
        if let adminRouter, let adminPort = configuration.adminPort {
            let port = UInt16(clamping: adminPort)
            let adminHost = configuration.adminHost ?? host
            do {
                admin = try server.addListener(
                    host: adminHost, port: port, router: adminRouter,
                    maxConnections: Self.adminMaxConnections,
                    maxConnectionsPerClient: Self.adminMaxConnectionsPerClient,
                    headerTimeoutSeconds: Self.adminHeaderTimeoutSeconds)
            } catch {
                throw .listen(host: adminHost, port: port, error)
            }
        }
        tlsReloader?.start(pollIntervalSeconds: Self.tlsPollIntervalSeconds)
        state.failover?.start()
        return ServiceAddresses(main: main, admin: admin)
    }

    /// How often the TLS files are checked for a change.
    static let tlsPollIntervalSeconds = 1.0

    /// The admin port's own connection cap: probes and scrapes need a handful, and a
    /// flood of the public port (at its cap) must not lock them out.
    package static let adminMaxConnections = 32
    /// One client's share of the admin port (CONTRACT §15): a client holding connections
    /// leaves the rest to the probes, and its idle ones make room for new ones.
    package static let adminMaxConnectionsPerClient = 8
    /// Probes send their request at once: a connection silent for longer is let go.
    package static let adminHeaderTimeoutSeconds = 2.0

    /// Graceful stop: `/readyz` turns 503 at once; after `unreadySeconds` (time for a load
    /// balancer to notice) the listeners close, requests in flight get until
    /// `drainDeadlineSeconds` to finish, and the upstream client is shut down.
    package func drain(unreadySeconds: Double = 0, drainDeadlineSeconds: Double) async {
        readiness.beginDraining()
        tlsReloader?.stop()
        if unreadySeconds > 0 {
            try? await Task.sleep(for: .milliseconds(Int64(unreadySeconds * 1000)))
        }
        await server.shutdown(drainDeadlineSeconds: drainDeadlineSeconds)
        client?.shutdown()
        state.failover?.stop()
        state.client?.shutdown()
    }
}

/// Where a started service listens.
package struct ServiceAddresses: Sendable {
    /// Grant endpoints (and the operations endpoints unless `admin` is set).
    package let main: SocketAddress
    /// `TOKENSWAP_ADMIN_PORT`'s listener, serving only the operations endpoints.
    package let admin: SocketAddress?
}

/// What `/readyz` reports: ready from the moment the service is assembled (a loaded
/// configuration has its providers and keys, or assembly would have failed), not ready
/// from the start of a drain, so a load balancer stops sending before the listener closes,
/// nor while the shared state store is down in `closed` mode (CONTRACT §12).
package final class Readiness: Sendable {
    private let draining = Atomic<Bool>(false)
    private let stateStore: FailoverStateStore?

    package init(stateStore: FailoverStateStore? = nil) {
        self.stateStore = stateStore
    }

    package var isReady: Bool { !isDraining && !isWaitingForStateStore }

    package var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// The store is down and `TOKENSWAP_STATE_FAILURE=closed`: requests that need it are
    /// refused, so the copy is not ready.
    package var isWaitingForStateStore: Bool { !(stateStore?.isReady ?? true) }

    package func beginDraining() {
        draining.store(true, ordering: .relaxed)
    }
}
