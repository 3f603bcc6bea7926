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

    let channel: SocketChannel
    let tls: TLSEngine?
    var loop: EventLoop { channel.loop }
    private(set) var state: State

    /// Socket bytes not yet given to the TLS engine.
    private var ciphertext: [UInt8] = []
    /// RESP bytes not yet given to the parser.
    private var plaintext: [UInt8] = []
    private var decryptScratch: [UInt8] = []
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
    /// The TLS handshake's deadline, then the setup commands sent once it completes.
    private var handshakeTimer: LoopTimer?
    private var pendingSetup: (steps: [(wire: [UInt8], step: SetupStep)], deadline: Deadline)?
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
        self.channel = channel
        self.tls = tls
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
        guard tls != nil else { return sendSetup(setup, deadline: deadline) }
        handshakeTimer = loop.schedule(at: deadline) { [self] in
            if state == .handshaking { finishEstablishing(.failure(.timedOut)) }
        }
        pendingSetup = (setup, deadline)
        advanceHandshake()
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

    private func advanceHandshake(atEndOfStream: Bool = false, socketFailure: String? = nil) {
        guard state == .handshaking, let tls else { return }
        let progress: TLSEngine.HandshakeProgress
        do {
            progress = try tls.handshake()
        } catch {
            // Send our alert (e.g. bad_certificate) so the server's log says why.
            flushTLS { _ in }
            return finishEstablishing(.failure(.tls(error)))
        }
        flushTLS { [self] result in
            if case .failure(let error) = result {
                finishEstablishing(.failure(.connectFailed(reason: "\(error)")))
            }
        }
        switch progress {
        case .complete:
            handshakeTimer?.cancel()
            handshakeTimer = nil
            guard let setup = pendingSetup else { return }
            pendingSetup = nil
            sendSetup(setup.steps, deadline: setup.deadline)
        case .needsMoreInput where atEndOfStream:
            let reason = socketFailure ?? "server closed the connection during the handshake"
            finishEstablishing(.failure(.tls(.handshake(reason: reason))))
        case .needsMoreInput:
            break
        }
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
        if look {
            let intake = readAvailable()
            guard case .open = intake, plaintext.isEmpty else {
                return close(.connectionClosed)
            }
        }
        armTimer(for: command.deadline)
        let written: (Result<Void, TransportError>) -> Void = { [self] result in
            switch result {
            case .success: writtenThrough = max(writtenThrough, id)
            case .failure: close(.connectionClosed)
            }
        }
        if let tls {
            let encrypted: Result<Void, TLSRecordError> = command.wire.withUnsafeBytes { raw in
                do throws(TLSRecordError) {
                    return .success(try tls.writePlaintext(raw))
                } catch {
                    return .failure(error)
                }
            }
            if case .failure(let error) = encrypted {
                return close(.protocolViolation(reason: "TLS write: \(error.reason)"))
            }
            flushTLS(completion: written)
        } else {
            channel.send(command.wire, completion: written)
        }
    }

    private func onReadable() {
        switch state {
        case .handshaking:
            switch readAvailable() {
            case .open: advanceHandshake()
            case .endOfStream: advanceHandshake(atEndOfStream: true)
            case .failed(let reason): advanceHandshake(atEndOfStream: true, socketFailure: reason)
            }
        case .settingUp, .ready:
            repliesReadable()
        case .closed:
            return
        }
    }

    private func repliesReadable() {
        let intake = readAvailable()
        if !plaintext.isEmpty {
            do {
                try parser.parse(plaintext, into: &replies)
            } catch {
                plaintext.removeAll()
                return close(error)
            }
            // A large reply's buffer is not kept for an idle connection.
            plaintext.removeAll(keepingCapacity: plaintext.capacity <= 64 * 1024)
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

    // MARK: bytes

    /// How the stream stands after a read.
    private enum Intake {
        case open
        case endOfStream
        case failed(String)
    }

    /// Reads at most this many times per readable event (`SocketChannel.receiveAvailable`).
    private static let receivesPerEvent = 8
    private static let receiveBytes = 64 * 1024

    /// Reads everything the socket has now into `plaintext` (through TLS when on).
    private func readAvailable() -> Intake {
        let received: ReceiveEnd
        if tls == nil {
            received = channel.receiveAvailable(
                into: &plaintext, maxBytes: Self.receiveBytes, reads: Self.receivesPerEvent)
        } else {
            received = channel.receiveAvailable(
                into: &ciphertext, maxBytes: Self.receiveBytes, reads: Self.receivesPerEvent)
        }
        let socket: Intake
        switch received {
        case .open: socket = .open
        case .endOfFile: socket = .endOfStream
        case .failed(let code): socket = .failed(TransportError.text(code))
        }
        guard let tls else { return socket }
        do throws(TLSRecordError) {
            switch try tls.absorb(&ciphertext, into: &plaintext, scratch: &decryptScratch) {
            case nil, .needsMoreInput?: return socket
            case .closed?: return .endOfStream
            }
        } catch {
            return .failed(error.reason)
        }
    }

    /// Sends what the TLS engine has queued (handshake records, alerts, ciphertext).
    private func flushTLS(completion: @escaping (Result<Void, TransportError>) -> Void) {
        guard let tls, tls.hasCiphertextToSend else { return completion(.success(())) }
        var out: [UInt8] = []
        tls.takeCiphertext(into: &out)
        channel.send(out, completion: completion)
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
        handshakeTimer?.cancel()
        handshakeTimer = nil
        if let tls, tls.handshakeComplete {
            tls.close()
            flushTLS { _ in }
        }
        channel.close()
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
