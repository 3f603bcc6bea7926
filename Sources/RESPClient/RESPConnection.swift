import ClientStream
import TLS
import Transport

/// One connection to the store, plain or TLS, owned by one event loop. Commands are
/// pipelined in order (RESP answers strictly in request order, so the oldest command
/// waiting takes the next reply): one connection then carries a loop's commands without
/// waiting a round trip for each, and the pool opens more only when one is busy. Reading
/// is always on, so a server that closes an idle connection is noticed and the pool
/// replaces it.
///
/// A command whose bytes the kernel did not take when the connection failed never
/// reached the server complete (Redis runs a command only once it has read all of it), so
/// the pool may send it on another connection; a command that was written and not
/// answered fails, never retried: the server may have run it.
///
/// `@unchecked Sendable` is sound: every mutable property is read and written only on
/// `channel.loop`'s thread — the pool calls in on the loop, and the channel's handlers and
/// timers run there — so no two threads touch the state at once. Sendable only so the
/// `@Sendable` closures run on the loop can capture it.
final class RESPConnection: @unchecked Sendable {
    enum State {
        case handshaking
        case settingUp
        case ready
        case closed
    }

    private struct InFlight {
        var id: UInt64
        var command: RESPPendingCommand
    }

    /// The socket and, for rediss, the TLS session: reading, writing, the handshake.
    let stream: ClientStream
    var channel: SocketChannel { stream.channel }
    var loop: EventLoop { channel.loop }
    private(set) var state: State

    private var parser: RESPReplyParser
    private var replies: [RESPValue] = []

    /// Commands sent or being sent, oldest first.
    private var inFlight: [InFlight] = []
    private var nextID: UInt64 = 0
    /// Every command up to this id was taken by the kernel (sends complete in order).
    private var writtenThrough: UInt64 = 0
    private var answered = 0
    /// Whether the server may have closed this idle connection without the loop having
    /// handed the close over yet (`SocketChannel.mayHoldUnseenClose`). Then `enqueue`
    /// looks before writing.
    var mayHaveUnseenClose: Bool {
        inFlight.isEmpty && answered > 0 && channel.mayHoldUnseenClose
    }

    /// The one deadline timer, armed for the earliest deadline among the commands in
    /// flight and re-armed lazily when it fires (a command that completes costs no timer
    /// work).
    private var timer: LoopTimer?
    private var timerAt: Deadline?
    private var establishCompletion: ((Result<Void, RESPError>) -> Void)?
    /// Setup commands not yet answered.
    private var setupLeft = 0
    private var onClose: ((RESPConnection, [RESPPendingCommand], RESPError) -> Void)?

    /// Takes over a connected channel and starts watching it. Call on the channel's loop.
    /// `onClose` runs once, on the loop, with the commands that never left (for another
    /// connection) and the reason.
    init(
        channel: SocketChannel, tls: TLSEngine?, limits: RESPLimits,
        onClose: @escaping (RESPConnection, [RESPPendingCommand], RESPError) -> Void
    ) {
        self.stream = ClientStream(channel: channel, tls: tls)
        self.parser = RESPReplyParser(limits: limits)
        self.onClose = onClose
        self.state = tls == nil ? .settingUp : .handshaking
        channel.setReadHandler { [self] in onReadable() }
        channel.resumeReading()
    }

    /// Commands sent and not yet answered: how busy the connection is.
    var inFlightCount: Int { inFlight.count }

    // MARK: establishing

    /// What a setup command is, for how its failure reads.
    enum SetupStep: Sendable {
        /// AUTH: a refusal is `.authenticationFailed`; the reason never holds `secret`.
        case authenticate(secret: [UInt8])
        /// SELECT: a refusal (no such database) stays `.server`.
        case select
    }

    /// Completes the TLS handshake (if any), then sends `setup` (AUTH, SELECT), all by
    /// `deadline`. `completion` runs once, on the loop; on failure the connection is
    /// closed.
    func establish(
        deadline: Deadline, setup: [(wire: [UInt8], step: SetupStep)],
        completion: @escaping (Result<Void, RESPError>) -> Void
    ) {
        loop.assertInLoop()
        establishCompletion = completion
        guard stream.tls != nil else { return sendSetup(setup, deadline: deadline) }
        stream.handshake(by: deadline) { [self] result in
            switch result {
            case .success: sendSetup(setup, deadline: deadline)
            case .failure(let failure): finishEstablishing(.failure(RESPError(handshake: failure)))
            }
        }
    }

    private func sendSetup(_ setup: [(wire: [UInt8], step: SetupStep)], deadline: Deadline) {
        state = .settingUp
        guard !setup.isEmpty else {
            state = .ready
            return finishEstablishing(.success(()))
        }
        setupLeft = setup.count
        for (wire, step) in setup {
            enqueue(
                RESPPendingCommand(
                    wire: wire, deadline: deadline, attemptsLeft: 0,
                    completion: { [self] result in setupAnswered(result, step: step) }))
        }
    }

    /// On the loop (replies and closing both run there).
    private func setupAnswered(_ result: Result<RESPValue, RESPError>, step: SetupStep) {
        switch (result, step) {
        case (.success, _):
            setupLeft -= 1
            if setupLeft == 0, state == .settingUp {
                state = .ready
                finishEstablishing(.success(()))
            }
        case (.failure(.server(let message)), .authenticate(let secret)):
            finishEstablishing(
                .failure(.authenticationFailed(reason: Self.scrubbed(message, secret))))
        case (.failure(let error), _):
            finishEstablishing(.failure(error))
        }
    }

    /// The server's words, or only its error code if they hold the secret (no server
    /// echoes a password; this makes sure of it).
    static func scrubbed(_ message: String, _ secret: [UInt8]) -> String {
        let bytes = Array(message.utf8)
        guard !secret.isEmpty, bytes.count >= secret.count else { return message }
        for start in 0...(bytes.count - secret.count)
        where bytes[start..<start + secret.count].elementsEqual(secret) {
            return String(message.prefix { $0 != " " })
        }
        return message
    }

    private func finishEstablishing(_ result: Result<Void, RESPError>) {
        guard let completion = establishCompletion else { return }
        establishCompletion = nil
        if case .failure(let error) = result { close(error) }
        completion(result)
    }

    // MARK: commands

    /// Sends `command` after those in flight. Call on the loop, in `.settingUp` or
    /// `.ready`. A connection found closed before the first byte leaves hands the command
    /// back through `onClose`, as never sent.
    func enqueue(_ command: RESPPendingCommand) {
        loop.assertInLoop()
        // A close that reached this idle connection before the loop's latest complete wait
        // has closed it already (handed over first); one that may not have been handed
        // over yet is looked for before a byte is written.
        let look = mayHaveUnseenClose
        nextID += 1
        let id = nextID
        inFlight.append(InFlight(id: id, command: command))
        channel.markBusy()
        guard state == .settingUp || state == .ready else {
            return close(.connectionClosed)
        }
        if look, !stream.stayedIdle() {
            return close(.connectionClosed)
        }
        armTimer(for: command.deadline)
        let written: (Result<Void, TransportError>) -> Void = { [self] result in
            switch result {
            case .success: writtenThrough = max(writtenThrough, id)
            case .failure: close(.connectionClosed)
            }
        }
        do throws(TLSRecordError) {
            try stream.write(command.wire, completion: written)
        } catch {
            close(.protocolViolation(reason: "TLS write: \(error.reason)"))
        }
    }

    private func onReadable() {
        switch state {
        case .handshaking:
            stream.handshakeReadable()
        case .settingUp, .ready:
            repliesReadable()
        case .closed:
            return
        }
    }

    private func repliesReadable() {
        let intake = stream.readAvailable()
        if !stream.plaintext.isEmpty {
            do {
                try parser.parse(stream.plaintext, into: &replies)
            } catch {
                stream.plaintext.removeAll()
                return close(error)
            }
            // A large reply's buffer is not kept for an idle connection.
            stream.plaintext.removeAll(keepingCapacity: stream.plaintext.capacity <= 64 * 1024)
        }
        var index = 0
        while index < replies.count, state != .closed {
            guard !inFlight.isEmpty else {
                replies.removeAll()
                return close(.protocolViolation(reason: "a reply with no command waiting"))
            }
            let reply = replies[index]
            index += 1
            let head = inFlight.removeFirst()
            answered += 1
            if inFlight.isEmpty {
                // Idle from here, before the completion may send the next command.
                channel.markIdle()
            }
            if case .error(let message) = reply {
                head.command.fail(.server(message: RESPError.safeServerMessage(message)))
            } else {
                head.command.completion(.success(reply))
            }
        }
        replies.removeAll(keepingCapacity: true)
        guard state != .closed else { return }
        switch intake {
        case .open: return
        // Mid-reply or not, an end of stream with commands waiting is a failure: a cut
        // reply is never a short success.
        case .endOfStream, .failed: close(.connectionClosed)
        }
    }

    // MARK: deadlines

    private func armTimer(for deadline: Deadline) {
        if let armed = timerAt, armed <= deadline { return }
        timer?.cancel()
        timerAt = deadline
        timer = loop.schedule(at: deadline) { [weak self] in self?.timerFired() }
    }

    /// A command past its deadline cannot be answered later on this connection (replies
    /// come in order, and the one it waits for is stuck behind a server that does not
    /// answer): the connection closes, and every command written on it fails as timed out.
    private func timerFired() {
        timer = nil
        timerAt = nil
        guard state != .closed, !inFlight.isEmpty else { return }
        let now = Deadline.now
        let earliest = inFlight.lazy.map(\.command.deadline).min() ?? .never
        if earliest.hasPassed(at: now) { return close(.timedOut) }
        armTimer(for: earliest)
    }

    // MARK: closing

    /// Closes the socket (after a best-effort close_notify) and answers every command in
    /// flight: written ones fail with `error`, the rest go back through `onClose`.
    /// Idempotent.
    func close(_ error: RESPError) {
        guard state != .closed else { return }
        state = .closed
        timer?.cancel()
        timer = nil
        timerAt = nil
        stream.close()
        let commands = inFlight
        inFlight = []
        var unsent: [RESPPendingCommand] = []
        for entry in commands {
            if entry.id <= writtenThrough {
                entry.command.fail(error)
            } else {
                unsent.append(entry.command)
            }
        }
        if let completion = establishCompletion {
            establishCompletion = nil
            completion(.failure(error))
        }
        let notify = onClose
        onClose = nil
        notify?(self, unsent, error)
    }
}
