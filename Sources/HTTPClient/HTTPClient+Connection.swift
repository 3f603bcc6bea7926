import HTTPCore
import TLS
import Transport

extension HTTPClient {
    /// Resolves, connects (each address in turn, within the connect deadline) and, for
    /// https, completes the TLS handshake. The connection is registered with `pool` only
    /// once it is ready, so on any failure the caller still owns the slot.
    func open(_ pool: ConnectionPool, on loop: EventLoop, deadline: Deadline)
        async throws(HTTPClientError) -> UpstreamConnection
    {
        let origin = pool.origin
        let resolved = await resolver.resolve(
            host: origin.host, port: origin.port,
            deadline: Deadline.after(seconds: configuration.connectTimeoutSeconds)
                .earlier(deadline))
        let addresses: [SocketAddress]
        switch resolved {
        case .success(let found): addresses = found
        case .failure(let failure): throw HTTPClientError(failure)
        }
        var failure = HTTPClientError.unreachable(reason: "no address for the host")
        var connected: SocketChannel?
        for address in addresses {
            guard !deadline.hasPassed() else { throw .timeout(.exchange) }
            // Each address gets the whole connect timeout, within the exchange's deadline.
            let connectDeadline = Deadline.after(seconds: configuration.connectTimeoutSeconds)
            do {
                connected = try await SocketChannel.connect(
                    to: address, on: loop, deadline: connectDeadline.earlier(deadline))
                break
            } catch .connectTimedOut {
                failure = .timeout(deadline < connectDeadline ? .exchange : .connect)
            } catch .system(let call, let code) where OpenFileLimit.isExhaustion(code) {
                // Our own limit, not the provider's: no other address will fare better.
                throw .resourcesExhausted(reason: "\(call): \(TransportError.text(code))")
            } catch {
                failure = .unreachable(reason: "\(address): \(error)")
            }
        }
        guard let channel = connected else { throw failure }
        let handshakeDeadline = Deadline.after(seconds: configuration.tlsHandshakeTimeoutSeconds)
            .earlier(deadline)
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
                connection.startHandshake(deadline: handshakeDeadline) { outcome in
                    if case .success = outcome { pool.opened(connection) }
                    continuation.resume(returning: outcome.map { connection })
                }
            }
        }
        return try result.get()
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
