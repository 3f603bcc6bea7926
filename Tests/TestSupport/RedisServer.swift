import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A real `redis-server` of the test's own (never the system service): a free loopback
/// port, no persistence (`--save ''`, `--appendonly no`), a fresh temporary folder, and
/// whatever settings the test adds (requirepass, an ACL user, TLS, an idle timeout).
/// Shared by the integration and end-to-end tests. Killed by `stop()` or when released; `restart()` brings it back on the same port.
public final class RedisServer: Sendable {
    public let port: UInt16
    /// The server's address as `TOKENSWAP_STATE_URL` and `RESPEndpoint` take it (no TLS,
    /// database 0); append `/N` for another database.
    public var url: String { "redis://127.0.0.1:\(port)" }
    private let arguments: [String]
    private let directory: String
    private let process: Mutex<ChildProcess?>

    public struct StartError: Error, CustomStringConvertible {
        public let description: String

        /// Another process took the free port between its choice and redis-server's bind.
        var portWasTaken: Bool { description.contains("Address already in use") }
    }

    /// - Parameter tls: a `TestPKI` certificate name: the server then listens with TLS
    ///   only (`--tls-port`), presenting that certificate.
    public static func start(tls: String? = nil, _ extra: [String] = []) async throws -> RedisServer
    {
        // The port is free when chosen and bound by redis-server a moment later; a test
        // running beside this one may take it in between. Then another port is chosen.
        var attemptsLeft = 5
        while true {
            attemptsLeft -= 1
            do {
                return try await offPool { try RedisServer(tls: tls, extra) }
            } catch let error as StartError where error.portWasTaken && attemptsLeft > 0 {
                continue
            }
        }
    }

    private init(tls: String?, _ extra: [String]) throws {
        let (fd, port) = try Loopback.bind()
        close(fd)  // freed for redis-server a moment later (`start` retries a taken port)
        self.port = port
        directory = NSTemporaryDirectory() + "tokenswap-redis-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        var arguments = [
            "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", directory,
            "--daemonize", "no", "--loglevel", "notice",
        ]
        if let tls {
            let pki = TestPKI.shared
            arguments += [
                "--port", "0", "--tls-port", String(port), "--tls-cert-file", pki.cert(tls),
                "--tls-key-file", pki.key(tls), "--tls-ca-cert-file", pki.caFile,
                "--tls-auth-clients", "no",
            ]
        } else {
            arguments += ["--port", String(port)]
        }
        self.arguments = arguments + extra
        process = Mutex(nil)
        do {
            try launch()
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Starts the process and waits until it accepts connections.
    private func launch() throws {
        let child = try ChildProcess("redis-server", arguments)
        // Ends early when redis-server exits (its stdout then ends).
        guard child.stdout.waitForText(containing: "Ready to accept connections") else {
            child.kill()
            // All it printed, read to the end (the reason may still be in the pipe).
            let printed = child.stdout.waitForEnd(timeoutSeconds: 5)
            throw StartError(description: "redis-server did not start: \(printed)")
        }
        process.withLock { $0 = child }
    }

    /// SIGKILL: the store dies as a crash would, connections reset.
    public func kill() {
        process.withLock { child in
            child?.kill()
            child = nil
        }
    }

    /// Starts again on the same port (after `kill`).
    public func restart() async throws {
        try await offPool { try self.launch() }
    }

    public func stop() {
        kill()
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit {
        stop()
    }
}
