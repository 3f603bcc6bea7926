import TLS
import Transport

/// The store connections of one event loop: up to `maxConnectionsPerLoop`, each carrying
/// pipelined commands. A command goes to the least busy ready connection; when that one
/// is already busy and there is room, another is opened for the commands that follow.
/// While no connection is ready, commands wait (bounded, each under its deadline) for the
/// one open in progress; while the store is down, only one open at a time is tried, and
/// its failure answers every waiting command. A connection that closes is forgotten, and
/// the next command opens a new one: reconnecting needs nothing from the caller.
///
/// `@unchecked Sendable` is sound: every mutable property is touched only on `loop`'s
/// thread (the client calls `submit` and `shutdown` there, via `execute` when the caller
/// runs elsewhere; connections and timers call back there), never from two threads.
final class RESPConnectionPool: @unchecked Sendable {
    let loop: EventLoop
    private let settings: RESPConnectionSettings
    private var ready: [RESPConnection] = []
    private var opening = 0
    private var waiting: [RESPPendingCommand] = []
    private var waitTimer: LoopTimer?
    private var waitTimerAt: Deadline?
    private var isShutDown = false

    init(loop: EventLoop, settings: RESPConnectionSettings) {
        self.loop = loop
        self.settings = settings
    }

    /// The connections commands can go on now (for tests). On the loop.
    var readyConnections: [RESPConnection] { ready }

    /// Sends `command` on a connection of this loop, or answers it with why not. On the
    /// loop.
    func submit(_ command: RESPPendingCommand) {
        loop.assertInLoop()
        guard !isShutDown else { return command.fail(.shutdown) }
        guard !command.deadline.hasPassed() else { return command.fail(.timedOut) }
        let room = ready.count + opening < settings.maxConnectionsPerLoop
        if let connection = ready.min(by: { $0.inFlightCount < $1.inFlightCount }),
            connection.inFlightCount < settings.maxInFlightPerConnection
        {
            if connection.inFlightCount > 0, room, opening == 0 { open() }
            return connection.enqueue(command)
        }
        guard ready.isEmpty || room || opening > 0 else { return command.fail(.poolExhausted) }
        guard waiting.count < settings.maxWaitersPerLoop else {
            return command.fail(.poolExhausted)
        }
        waiting.append(command)
        armWaitTimer(for: command.deadline)
        if opening == 0 { open() }
    }

    /// Closes every connection and fails every waiting command; later commands fail with
    /// `.shutdown`. On the loop.
    func shutdown() {
        loop.assertInLoop()
        isShutDown = true
        waitTimer?.cancel()
        waitTimer = nil
        waitTimerAt = nil
        let waiters = waiting
        waiting = []
        for command in waiters { command.fail(.shutdown) }
        for connection in ready { connection.close(.shutdown) }
        ready = []
    }

    // MARK: opening

    /// Resolves (off the loop), connects to each address in turn, then TLS, AUTH and
    /// SELECT, all within one timeout.
    private func open() {
        opening += 1
        let deadline = Deadline.after(seconds: settings.timeoutSeconds)
        let endpoint = settings.endpoint
        settings.resolver.resolve(host: endpoint.host, port: endpoint.port, deadline: deadline) {
            [self] result in
            loop.execute { [self] in
                switch result {
                case .success(let addresses):
                    connect(addresses[...], deadline: deadline, failure: nil)
                case .failure(let failure): openFailed(RESPError(failure))
                }
            }
        }
    }

    private func connect(
        _ addresses: ArraySlice<SocketAddress>, deadline: Deadline, failure: RESPError?
    ) {
        guard let address = addresses.first else {
            return openFailed(failure ?? .connectFailed(reason: "no address for the host"))
        }
        guard !deadline.hasPassed() else { return openFailed(.timedOut) }
        SocketChannel.connect(to: address, on: loop, deadline: deadline) { [self] result in
            switch result {
            case .success(let channel):
                startSession(on: channel, deadline: deadline)
            case .failure(.connectTimedOut):
                openFailed(.timedOut)
            case .failure(let error):
                connect(
                    addresses.dropFirst(), deadline: deadline,
                    failure: .connectFailed(reason: "\(address): \(error)"))
            }
        }
    }

    private func startSession(on channel: SocketChannel, deadline: Deadline) {
        guard !isShutDown else {
            channel.close()
            return openFailed(.shutdown)
        }
        var tls: TLSEngine?
        if let context = settings.tlsContext {
            do throws(TLSFailure) {
                tls = try TLSEngine(context: context, serverName: settings.endpoint.host)
            } catch {
                channel.close()
                return openFailed(.tls(error))
            }
        }
        let connection = RESPConnection(
            channel: channel, tls: tls, limits: settings.limits,
            onClose: { [weak self] closed, unsent, error in
                self?.connectionClosed(closed, unsent: unsent, error: error)
            })
        connection.establish(deadline: deadline, setup: settings.setup) { [self] result in
            switch result {
            case .success: opened(connection)
            case .failure(let error): openFailed(error)
            }
        }
    }

    private func opened(_ connection: RESPConnection) {
        opening -= 1
        guard !isShutDown else { return connection.close(.shutdown) }
        ready.append(connection)
        let waiters = waiting
        waiting = []
        for command in waiters { submit(command) }
    }

    /// The open failed: with no connection ready and none opening, nothing will serve
    /// the waiting commands soon, so they fail now with the reason (a store that is down
    /// answers at once, not at each command's deadline).
    private func openFailed(_ error: RESPError) {
        opening -= 1
        guard opening == 0 else { return }
        let waiters = waiting
        waiting = []
        if ready.isEmpty {
            for command in waiters { command.fail(error) }
        } else {
            for command in waiters { submit(command) }
        }
    }

    /// A connection closed: forget it; the commands that never left it go to another
    /// connection while they have attempts left.
    private func connectionClosed(
        _ connection: RESPConnection, unsent: [RESPPendingCommand], error: RESPError
    ) {
        ready.removeAll { $0 === connection }
        for var command in unsent {
            guard command.attemptsLeft > 0 else {
                command.fail(error)
                continue
            }
            command.attemptsLeft -= 1
            submit(command)
        }
    }

    // MARK: waiting

    /// One timer for every waiting command, armed for the earliest deadline among them.
    private func armWaitTimer(for deadline: Deadline) {
        if let armed = waitTimerAt, armed <= deadline { return }
        waitTimer?.cancel()
        waitTimerAt = deadline
        waitTimer = loop.schedule(at: deadline) { [weak self] in self?.expireWaiters() }
    }

    private func expireWaiters() {
        waitTimer = nil
        waitTimerAt = nil
        let now = Deadline.now
        var expired: [RESPPendingCommand] = []
        waiting.removeAll { command in
            guard command.deadline.hasPassed(at: now) else { return false }
            expired.append(command)
            return true
        }
        if let next = waiting.map(\.deadline).min() { armWaitTimer(for: next) }
        for command in expired { command.fail(.timedOut) }
    }
}
