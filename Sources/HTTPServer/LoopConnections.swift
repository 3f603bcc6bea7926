import HTTPCore
import Transport

/// The connections one event loop owns, and the one timer that sweeps their deadlines.
///
/// `@unchecked Sendable` is sound: every stored `var` is read and written only on
/// `loop`'s serial queue (the sweeper is a timer on that queue; `HTTPServer` reaches the
/// table only through `loop.execute`), so there is no concurrent access.
final class LoopConnections: @unchecked Sendable {
    let loop: EventLoop
    private var connections: [ObjectIdentifier: Connection] = [:]
    private var sweeper: LoopTimer?
    /// Set by graceful shutdown: connections finish what is in flight, then close.
    private(set) var draining = false
    /// One encoder and Date cache per loop, shared by its connections: a response is
    /// encoded and handed to `send` in one go on the loop, so they never interleave, and
    /// the buffer's capacity is reused from response to response.
    private var encoder = ResponseEncoder(reservingCapacity: 4096)
    private var dates = DateCache()

    init(loop: EventLoop) {
        self.loop = loop
    }

    /// Connections waiting for a next request (on the loop: O(connections), for scrapes).
    var idleCount: Int { connections.values.reduce(0) { $0 + ($1.isIdle ? 1 : 0) } }

    func startSweeping(intervalSeconds: Double) {
        loop.execute { [self] in
            guard sweeper == nil else { return }
            sweeper = loop.scheduleRepeating(intervalSeconds: intervalSeconds) { [self] in
                sweep()
            }
        }
    }

    func stopSweeping() {
        loop.execute { [self] in
            sweeper?.cancel()
            sweeper = nil
        }
    }

    /// The bytes of `response` (head and body, for one `send`).
    func encode(
        _ response: HTTPResponse, method: HTTPMethod, version: HTTPVersion, close: Bool
    ) -> [UInt8] {
        encoder.encode(
            response, requestMethod: method, requestVersion: version, closeConnection: close,
            date: dates.imfFixdate())
        return encoder.bytes
    }

    func add(_ connection: Connection) {
        connections[ObjectIdentifier(connection)] = connection
    }

    func remove(_ connection: Connection) {
        connections[ObjectIdentifier(connection)] = nil
    }

    /// One pass over every connection: those past their deadline act on it. One timer per
    /// loop instead of one per connection keeps 10,000 idle connections cheap.
    func sweep() {
        let now = Deadline.now
        for connection in connections.values where connection.deadline.hasPassed(at: now) {
            connection.deadlinePassed(now: now)
        }
    }

    /// Graceful shutdown: idle keep-alive connections close now; busy ones close after
    /// their current response.
    func beginDraining() {
        draining = true
        for connection in Array(connections.values) { connection.drain() }
    }

    /// The drain deadline passed: close whatever is left.
    func closeAll() {
        for connection in Array(connections.values) { connection.forceClose() }
    }
}
