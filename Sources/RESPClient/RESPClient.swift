import Synchronization
import TLS
import Transport

/// The shared store's client (CONTRACT §12): RESP2 over `Transport`'s event loops, as
/// HTTPClient is for providers — pooled per loop, a deadline on every command (waiting
/// for a connection, connecting, TLS, AUTH, writing, reading), `rediss://` through the
/// `TLS` target with verification always on, DNS off the loops, and a command sent on
/// another connection only when it provably never reached the server. Works with
/// Redis ≥ 6 and Valkey.
///
/// A caller on one of the loops (a server's handler) uses that loop's pool and is
/// answered on its own thread with no hop; any other caller is served by the next loop
/// in turn.
public final class RESPClient: Sendable {
    public let endpoint: RESPEndpoint
    private let group: EventLoopGroup
    /// One pool per loop, by loop index.
    private let pools: [RESPConnectionPool]
    private let timeoutSeconds: Double
    private let maxConnectionsPerLoop: Int
    private let isShutDown = Atomic<Bool>(false)

    /// - Parameters:
    ///   - loops: the loops connections live on (the server's group, to share its loops).
    ///   - timeout: every command's deadline, from the call to its answer
    ///     (`TOKENSWAP_STATE_TIMEOUT_MS`); also one connection attempt's.
    ///   - caFile: an extra PEM bundle trusted for `rediss://` besides the system store.
    ///   - maxConnectionsPerLoop: open connections per loop (each pipelines).
    /// - Throws: `.tls(.configuration)` when the trust store or the CA file cannot be
    ///   loaded (`rediss://` only).
    package init(
        endpoint: RESPEndpoint, loops: EventLoopGroup, timeout: Duration,
        caFile: String? = nil, maxConnectionsPerLoop: Int = 4, limits: RESPLimits = RESPLimits()
    ) throws(RESPError) {
        self.endpoint = endpoint
        self.group = loops
        let (seconds, attoseconds) = timeout.components
        self.timeoutSeconds = max(0, Double(seconds) + Double(attoseconds) / 1e18)
        self.maxConnectionsPerLoop = max(1, maxConnectionsPerLoop)
        var tlsContext: TLSClientContext?
        if endpoint.usesTLS {
            do throws(TLSFailure) {
                tlsContext = try TLSClientContext(extraCAFilePath: caFile)
            } catch {
                throw .tls(error)
            }
        }
        // Failures are not kept: a reconnect after a DNS outage asks again, and opens are
        // few (one at a time per loop while no connection is up).
        let resolver = NameResolver(
            label: "tokenswap.store.resolver", cacheSeconds: 30, failureCacheSeconds: 0)
        let settings = RESPConnectionSettings(
            endpoint: endpoint, tlsContext: tlsContext, resolver: resolver,
            limits: limits, timeoutSeconds: timeoutSeconds,
            maxConnectionsPerLoop: self.maxConnectionsPerLoop,
            maxInFlightPerConnection: 256, maxWaitersPerLoop: 1024)
        self.pools = loops.loops.map { RESPConnectionPool(loop: $0, settings: settings) }
        BrokenPipe.ignore()
    }

    /// One command (its name and arguments, as bytes), answered exactly once by
    /// `completion` — on a loop thread, or at once on the caller's thread when the
    /// command cannot be sent — within the client's timeout. An error reply is
    /// `.server`; any other reply is the value.
    public func send(
        _ arguments: [[UInt8]],
        completion: @escaping @Sendable (Result<RESPValue, RESPError>) -> Void
    ) {
        guard !isShutDown.load(ordering: .relaxed) else { return completion(.failure(.shutdown)) }
        let wire: [UInt8]
        do {
            wire = try RESPCommandEncoder.encode(arguments)
        } catch {
            return completion(.failure(error))
        }
        let deadline = Deadline.after(seconds: timeoutSeconds)
        // Each retry needs a command that provably never left; the bound stops a pool of
        // dead connections from passing it round longer than it has connections.
        let command = RESPPendingCommand(
            wire: wire, deadline: deadline, attemptsLeft: maxConnectionsPerLoop + 1,
            completion: completion)
        if let loop = group.loops.first(where: \.inLoop) {
            return pools[loop.index].submit(command)
        }
        let pool = pools[group.next().index]
        pool.loop.execute { pool.submit(command) }
    }

    /// The pool of `loop`'s connections (for tests).
    func pool(on loop: EventLoop) -> RESPConnectionPool { pools[loop.index] }

    /// `send`, awaited without blocking a thread.
    public func send(_ arguments: [[UInt8]]) async throws(RESPError) -> RESPValue {
        let result = await withCheckedContinuation { continuation in
            send(arguments) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Closes every connection and fails waiting commands; later commands fail with
    /// `.shutdown`. Commands written and not yet answered fail with `.shutdown` too.
    public func shutdown() {
        guard !isShutDown.exchange(true, ordering: .relaxed) else { return }
        for pool in pools {
            pool.loop.execute { pool.shutdown() }
        }
    }
}
