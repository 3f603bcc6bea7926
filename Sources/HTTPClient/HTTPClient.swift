import HTTPCore
import Synchronization
import TLS
import Transport

/// The upstream HTTP/1.1 client: per-origin pools of keep-alive connections over the
/// Transport event loops, TLS through OpenSSL with verification always on, one deadline
/// per request across every phase of its exchange (name lookup, connect, TLS, request,
/// answer), and a retry only when a request provably never reached the server.
///
/// `send` suspends on continuations resumed from the event loops: no thread (loop,
/// Dispatch worker or cooperative pool) blocks while a request is in flight. HTTP(S)
/// proxies are not supported: connections go straight to the origin.
package final class HTTPClient: Sendable {
    package let configuration: HTTPClientConfiguration
    let group: EventLoopGroup
    let tlsContext: TLSClientContext
    let resolver: NameResolver
    let limits: HTTPLimits
    /// One pool per origin and event loop: a connection is used only on the loop that
    /// owns it, by callers running on that loop.
    private let pools = Mutex<[PoolKey: ConnectionPool]>([:])
    let isShutDown = Atomic<Bool>(false)

    /// - Parameters:
    ///   - eventLoopGroup: the loops connections live on; nil creates one loop per core
    ///     (pass the server's group to share its loops).
    /// - Throws: `.tls(.configuration)` when the trust store or the extra CA file cannot
    ///   be loaded.
    package init(
        configuration: HTTPClientConfiguration = HTTPClientConfiguration(),
        eventLoopGroup: EventLoopGroup? = nil
    ) throws(HTTPClientError) {
        // The seconds are clamped where they become a `Deadline`, so none can trap a timer.
        self.configuration = configuration
        self.group = eventLoopGroup ?? EventLoopGroup()
        do {
            self.tlsContext = try TLSClientContext(extraCAFilePath: configuration.extraCAFilePath)
        } catch {
            throw .tls(error)
        }
        self.resolver = NameResolver(
            label: "tokenswap.client.resolver", cacheSeconds: configuration.dnsCacheSeconds,
            failureCacheSeconds: 5)
        self.limits = configuration.responseLimits
        BrokenPipe.ignore()
    }

    /// Sends `request` and returns the complete response (any status), or throws an
    /// `HTTPClientError` saying what failed. `timeoutSeconds` bounds the whole exchange:
    /// waiting for a connection, connecting, TLS, writing and reading.
    package func send(_ request: HTTPClientRequest, timeoutSeconds: Double)
        async throws(HTTPClientError) -> HTTPResponse
    {
        try await send(request, deadline: .after(seconds: timeoutSeconds))
    }

    /// Sends `request`; the whole exchange must end by `deadline`.
    package func send(_ request: HTTPClientRequest, deadline: Deadline)
        async throws(HTTPClientError) -> HTTPResponse
    {
        guard !isShutDown.load(ordering: .relaxed) else { throw .shutdown }
        let wire = try Self.encode(request)
        // A caller on one of the loops (a server handler) uses that loop's pool: the
        // exchange then runs on the caller's own thread with no hop. Any other caller
        // goes to the origin's home loop.
        let callerLoop = currentLoop()
        let loop = callerLoop ?? homeLoop(for: request.origin)
        let pool = pool(for: request.origin, on: loop)
        // Each retry needs a request that provably never left; the bound stops a pool of
        // stale connections from looping longer than it has connections.
        var attemptsLeft = configuration.maxConnectionsPerOrigin + 1
        while true {
            attemptsLeft -= 1
            guard !deadline.hasPassed() else { throw .timeout(.exchange) }
            let connection: UpstreamConnection
            switch await pool.acquire(deadline: deadline, timerLoop: loop) {
            case .failure(let error): throw error
            case .success(.reuse(let pooled)): connection = pooled
            case .success(.open):
                do {
                    connection = try await open(pool, on: loop, deadline: deadline)
                } catch {
                    pool.openFailed()
                    throw error
                }
            }
            let answer = await exchange(
                on: connection, wire, method: request.method, deadline: deadline,
                callerOnLoop: callerLoop === loop)
            switch answer {
            case .success(let answer):
                if let session = answer.session { pool.session = session }
                if answer.reusable { pool.release(connection) }
                return answer.response
            case .failure(let failure):
                // A retry past the deadline ends as `.timeout` at the top of the loop.
                guard failure.requestNeverSent, attemptsLeft > 0 else { throw failure.error }
            }
        }
    }

    /// Closes idle connections and fails waiting requests; later `send`s throw
    /// `.shutdown`. Requests in flight finish, then their connections close.
    package func shutdown() {
        isShutDown.store(true, ordering: .relaxed)
        let all = pools.withLock { pools in
            defer { pools = [:] }
            return Array(pools.values)
        }
        for pool in all { pool.shutdown() }
    }

    /// The loop of this group whose thread the caller runs on, if any: a server's
    /// handler (a responder, or a task started with `executorPreference: loop`).
    func currentLoop() -> EventLoop? {
        group.loops.first(where: \.inLoop)
    }

    /// The pool of `origin`'s connections on `loop`.
    func pool(for origin: Origin, on loop: EventLoop) -> ConnectionPool {
        pools.withLock { pools in
            let key = PoolKey(origin: origin, loop: loop.index)
            if let pool = pools[key] { return pool }
            let pool = ConnectionPool(
                origin: origin, maxConnections: configuration.maxConnectionsPerOrigin,
                maxWaiters: configuration.maxWaitersPerOrigin)
            pools[key] = pool
            return pool
        }
    }

    /// The pool that callers off the loops use for `origin`.
    func pool(for origin: Origin) -> ConnectionPool {
        pool(for: origin, on: homeLoop(for: origin))
    }

    /// The loop that serves `origin` for callers that run on none of the loops: always
    /// the same one, so they share one pool of keep-alive connections.
    func homeLoop(for origin: Origin) -> EventLoop {
        group.loops[Int(UInt(bitPattern: origin.hashValue) % UInt(group.loops.count))]
    }

    static func encode(_ request: HTTPClientRequest) throws(HTTPClientError) -> [UInt8] {
        var encoder = RequestEncoder()
        do {
            try encoder.encode(
                method: request.method, target: request.target, headers: request.headers,
                body: request.body, host: request.origin.hostField)
        } catch {
            throw .invalidRequest(reason: "\(error)")
        }
        return encoder.bytes
    }
}
