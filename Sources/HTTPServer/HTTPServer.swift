import Dispatch
import HTTPCore
import Synchronization
import TLS
import Transport

/// The HTTP/1.1 server: listeners whose connections are spread over a group of event
/// loops, a router per listener, the limits and deadlines of one `ServerConfiguration`.
///
/// ```swift
/// let server = HTTPServer(configuration: ServerConfiguration(), router: router)
/// let address = try server.start(host: "0.0.0.0", port: 8080)
/// try server.addListener(host: "127.0.0.1", port: 9090, router: adminRouter)
/// await server.shutdown(drainDeadlineSeconds: 10)
/// ```
public final class HTTPServer: Sendable {
    package let configuration: ServerConfiguration
    package let group: EventLoopGroup
    private let router: Router
    private let tables: [LoopConnections]
    private let listeners = Mutex<[Listener]>([])
    private let openConnections = ConnectionCounter()
    /// Body bytes of requests being read, over every listener.
    private let bodyBudget: BodyBudget
    /// Connections per client address, over every listener; nil when uncapped.
    private let clientCounts: ClientConnectionCounts?
    /// The counts of listeners with a cap of their own.
    private let ownCounters = Mutex<[ConnectionCounter]>([])
    private let drainQueued = Atomic<Bool>(false)

    package init(
        configuration: ServerConfiguration = ServerConfiguration(), router: Router,
        group: EventLoopGroup? = nil
    ) {
        var configuration = configuration
        // Client connections never take the descriptors upstream sockets, logs and the
        // admin port need (OpenFileLimit.reserve).
        configuration.maxConnections = OpenFileLimit.connectionCap(
            configured: configuration.maxConnections, openFiles: OpenFileLimit.current)
        self.configuration = configuration
        self.bodyBudget = BodyBudget(limitBytes: configuration.maxBodyBytesInFlight)
        self.clientCounts =
            configuration.maxConnectionsPerClient > 0
            ? ClientConnectionCounts(
                maxPerClient: configuration.maxConnectionsPerClient,
                ipv6PrefixLength: configuration.clientIPv6PrefixLength) : nil
        self.router = router
        let group = group ?? EventLoopGroup(loopCount: configuration.loopCount)
        self.group = group
        self.tables = group.loops.map { LoopConnections(loop: $0) }
        for table in tables { table.startSweeping(intervalSeconds: sweepIntervalSeconds) }
    }

    /// Listens on `host:port` (port 0: any free port; host numeric, or a name resolved
    /// once here) with the server's router, over TLS when the configuration has a
    /// certificate, and returns the bound address.
    @discardableResult
    package func start(host: String, port: UInt16) throws(TransportError) -> SocketAddress {
        try addListener(host: host, port: port, router: router, tls: configuration.tls)
    }

    /// Listens on another address with its own router (e.g. an admin port serving only
    /// the operations endpoints). All listeners share the loops; with `maxConnections`
    /// the listener has a cap and a count of its own, so a flood of the other listeners
    /// cannot lock it out (an admin port's probes must answer while the public port is
    /// at its cap); without, it shares the server's. With `tls`, each connection is a
    /// TLS session made from the store's current pair.
    ///
    /// A listener with a cap of its own also stays usable while one client holds
    /// connections to it (CONTRACT §15): `maxConnectionsPerClient` caps each client
    /// (none when nil), `headerTimeoutSeconds` replaces the server's header deadline, and
    /// a new connection that finds the listener's cap (or its client's) full of
    /// connections waiting for a request closes the one that waited longest instead of
    /// being refused.
    @discardableResult
    package func addListener(
        host: String, port: UInt16, router: Router, maxConnections: Int? = nil,
        maxConnectionsPerClient: Int? = nil, headerTimeoutSeconds: Double? = nil,
        tls: TLSServerContextStore? = nil
    ) throws(TransportError) -> SocketAddress {
        let address: SocketAddress
        if let numeric = try? SocketAddress(ipAddress: host, port: port) {
            address = numeric
        } else {
            // A name (`localhost`): resolving blocks, which is acceptable at start-up.
            guard let first = try SocketAddress.resolve(host: host, port: port).first else {
                throw .unresolvable(host: host, code: 0)
            }
            address = first
        }
        var configuration = self.configuration
        if let headerTimeoutSeconds {
            configuration.headerTimeoutSeconds = headerTimeoutSeconds
        }
        let ownCap = maxConnections != nil
        let clientCounts: ClientConnectionCounts? =
            if !ownCap {
                self.clientCounts
            } else if let maxConnectionsPerClient, maxConnectionsPerClient > 0 {
                ClientConnectionCounts(
                    maxPerClient: maxConnectionsPerClient,
                    ipv6PrefixLength: configuration.clientIPv6PrefixLength)
            } else {
                nil
            }
        let waiting = ownCap ? WaitingConnections() : nil
        let listener = try Listener(
            address: address, group: group,
            maxConnections: maxConnections ?? configuration.maxConnections,
            retryDelaySeconds: configuration.acceptRetryDelaySeconds,
            openConnections: ownCap ? ownCounter() : openConnections,
            clientCounts: clientCounts,
            onPause: Self.pauseReporter(configuration.observer),
            onClientCap: Self.clientCapReporter(configuration.observer),
            makeRoom: waiting.map(Self.roomMaker(clientCounts: clientCounts)))
        let tables = self.tables
        let bodyBudget = self.bodyBudget
        listener.start { [configuration] (channel: SocketChannel) in
            let table = tables[channel.loop.index]
            var engine: TLSEngine?
            if let tls {
                // Fails only when OpenSSL cannot allocate: drop this connection.
                guard let made = try? TLSEngine(context: tls.context) else {
                    return channel.close()
                }
                engine = made
            }
            let connection = Connection(
                channel: channel, tls: engine, table: table, router: router,
                configuration: configuration, bodyBudget: bodyBudget)
            if let waiting {
                connection.waiting = (
                    waiting, channel.peerAddress.flatMap { clientCounts?.clientKey(for: $0.host) }
                )
            }
            connection.start()
        }
        listeners.withLock { $0.append(listener) }
        return listener.localAddress
    }

    /// The listener's `makeRoom`: closes the oldest connection of `waiting`, of the
    /// client's when a client is named.
    private static func roomMaker(clientCounts: ClientConnectionCounts?)
        -> @Sendable (WaitingConnections) -> (@Sendable (String?) -> Bool)
    {
        { waiting in
            { host in
                let client = host.flatMap { clientCounts?.clientKey(for: $0) }
                return waiting.closeOldest(of: client)
            }
        }
    }

    /// The listener's per-client-cap callback that tells `observer`, or nil.
    private static func clientCapReporter(_ observer: (any ServerObserver)?)
        -> (@Sendable () -> Void)?
    {
        guard let observer else { return nil }
        return { observer.observe(.clientConnectionCapReached) }
    }

    /// The listener's pause callback that tells `observer`, or nil.
    private static func pauseReporter(_ observer: (any ServerObserver)?)
        -> (@Sendable (AcceptPause) -> Void)?
    {
        guard let observer else { return nil }
        return { reason in
            switch reason {
            case .connectionCap: observer.observe(.connectionCapReached)
            case .resourcesExhausted: observer.observe(.acceptResourcesExhausted)
            }
        }
    }

    /// Connections open right now, over all listeners.
    package var connectionCount: Int {
        openConnections.current + ownCounters.withLock { $0.reduce(0) { $0 + $1.current } }
    }

    /// Request bytes held right now against `maxBodyBytesInFlight` (heads waiting for
    /// more, bodies being read), over all listeners: what a test waits on.
    package var bodyBytesInFlight: Int { bodyBudget.reserved }

    /// True once `shutdown` has stopped the listeners and queued every loop's drain: a
    /// loop busy in a handler begins draining when that handler returns.
    package var isDraining: Bool { drainQueued.load(ordering: .acquiring) }

    /// A count for a listener with a cap of its own, included in `connectionCount`.
    private func ownCounter() -> ConnectionCounter {
        let counter = ConnectionCounter()
        ownCounters.withLock { $0.append(counter) }
        return counter
    }

    /// Open connections and, of those, the idle keep-alive ones (waiting for a next
    /// request). Each loop counts its own on its queue, so this awaits every loop once:
    /// meant for a metrics scrape, not a hot path.
    package func connectionCounts() async -> (open: Int, idle: Int) {
        var idle = 0
        for table in tables {
            idle += await withCheckedContinuation { continuation in
                table.loop.execute { continuation.resume(returning: table.idleCount) }
            }
        }
        return (connectionCount, idle)
    }

    /// Graceful shutdown: stop accepting, close idle keep-alive connections, let requests
    /// in flight finish and answer (with `Connection: close`) until `drainDeadlineSeconds`,
    /// then close whatever is left. Returns when every connection is closed.
    package func shutdown(drainDeadlineSeconds: Double) async {
        let stopping = listeners.withLock { all in
            defer { all = [] }
            return all
        }
        for listener in stopping { listener.stop() }
        for table in tables { table.loop.execute { table.beginDraining() } }
        drainQueued.store(true, ordering: .releasing)
        let deadline = Deadline.after(seconds: drainDeadlineSeconds)
        while connectionCount > 0, !deadline.hasPassed() {
            try? await Task.sleep(for: .milliseconds(10))
        }
        for table in tables { table.loop.execute { table.closeAll() } }
        while connectionCount > 0 {
            try? await Task.sleep(for: .milliseconds(5))
        }
        for table in tables { table.stopSweeping() }
    }

    /// A quarter of the shortest deadline, so none is overshot by more than 25 %, but
    /// no faster than 100 Hz and no slower than 1 Hz.
    private var sweepIntervalSeconds: Double {
        let c = configuration
        let shortest = min(
            c.headerTimeoutSeconds, c.bodyTimeoutSeconds, c.idleTimeoutSeconds,
            c.writeTimeoutSeconds, c.lingerSeconds)
        return min(1.0, max(0.01, shortest / 4))
    }
}
