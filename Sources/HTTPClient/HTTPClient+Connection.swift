import HTTPCore
import TLS
import Transport

extension HTTPClient {
    /// Resolves, connects (each address in turn) and, for https, completes the TLS
    /// handshake, all by `deadline`: the exchange's own. CONTRACT §5 makes the upstream
    /// timeout the whole exchange, so no phase has a fixed deadline of its own that would
    /// cut a slow but punctual provider short (a 5 s handshake bound once failed a
    /// 6 s handshake under a 30 s timeout). The connection is registered with `pool` only
    /// once it is ready, so on any failure the caller still owns the slot.
    ///
    /// An opening answers to the deadline of the request that opens it, and to no other:
    /// the pool grants a slot (`Lease.open`) to one request, and only that request awaits
    /// the opening. Requests queued in the pool meanwhile wait, each until its own
    /// deadline, for a connection to be released or a slot freed; when this opening fails
    /// at its opener's deadline the slot passes to the first of them (`openFailed`), which
    /// opens again under its own. So a request with a later deadline is never cut short by
    /// an earlier one's opening, and no opening outlives the request it is for (nobody
    /// else would read its outcome).
    func open(_ pool: ConnectionPool, on loop: EventLoop, deadline: Deadline)
        async throws(HTTPClientError) -> UpstreamConnection
    {
        let origin = pool.origin
        let resolved = await resolver.resolve(
            host: origin.host, port: origin.port, deadline: deadline)
        let addresses: [SocketAddress]
        switch resolved {
        case .success(let found): addresses = found
        case .failure(let failure): throw HTTPClientError(failure)
        }
        var failure = HTTPClientError.unreachable(reason: "no address for the host")
        var connected: SocketChannel?
        for (index, address) in addresses.enumerated() {
            guard !deadline.hasPassed() else { throw .timeout(.connect) }
            let connectDeadline = Self.connectDeadline(
                addressesLeft: addresses.count - index, within: deadline)
            do {
                connected = try await SocketChannel.connect(
                    to: address, on: loop, deadline: connectDeadline)
                break
            } catch .connectTimedOut {
                failure = .timeout(.connect)
            } catch .system(let call, let code) where OpenFileLimit.isExhaustion(code) {
                // Our own limit, not the provider's: no other address will fare better.
                throw .resourcesExhausted(reason: "\(call): \(TransportError.text(code))")
            } catch {
                failure = .unreachable(reason: "\(address): \(error)")
            }
        }
        guard let channel = connected else { throw failure }
        let result: Result<UpstreamConnection, HTTPClientError> = await withCheckedContinuation {
            continuation in
            loop.execute { [self] in
                var tls: TLSEngine?
                if origin.scheme == .https {
                    do throws(TLSFailure) {
                        tls = try TLSEngine(
                            context: tlsContext, serverName: origin.host, session: pool.session)
                    } catch {
                        channel.close()
                        return continuation.resume(returning: .failure(.tls(error)))
                    }
                }
                let connection = UpstreamConnection(
                    channel: channel, tls: tls, limits: limits,
                    idleTimeoutSeconds: configuration.idleTimeoutSeconds,
                    onClose: { [weak pool] closed in pool?.retire(closed) })
                guard tls != nil else {
                    pool.opened(connection)
                    return continuation.resume(returning: .success(connection))
                }
                connection.startHandshake(deadline: deadline) { outcome in
                    if case .success = outcome { pool.opened(connection) }
                    continuation.resume(returning: outcome.map { connection })
                }
            }
        }
        return try result.get()
    }

    /// When a connect to one of `addressesLeft` addresses still to try gives up: at an
    /// even share of what is left until the exchange's `deadline`, so an address that
    /// drops the SYN leaves the others their turn, and the last address has all that is
    /// left. Derived from the request's deadline, never a fixed span: an origin with one
    /// address may take as long to connect as the exchange may take.
    static func connectDeadline(
        addressesLeft: Int, within deadline: Deadline, now: Deadline = .now
    ) -> Deadline {
        guard addressesLeft > 1 else { return deadline }
        let share = deadline.secondsLeft(from: now) / Double(addressesLeft)
        return Deadline.after(seconds: share, from: now).earlier(deadline)
    }

    /// One exchange on `connection`'s loop, awaited without blocking a thread. A caller
    /// already running on that loop (`callerOnLoop`) starts it in place; its resumption
    /// is queued on the same loop, so request and response stay on one thread.
    func exchange(
        on connection: UpstreamConnection, _ wire: [UInt8], method: HTTPMethod,
        deadline: Deadline, callerOnLoop: Bool
    ) async -> Result<UpstreamConnection.Answer, ExchangeFailure> {
        await withCheckedContinuation { continuation in
            let start: @Sendable () -> Void = {
                connection.exchange(wire, method: method, deadline: deadline) {
                    continuation.resume(returning: $0)
                }
            }
            if callerOnLoop { start() } else { connection.loop.execute(start) }
        }
    }
}
