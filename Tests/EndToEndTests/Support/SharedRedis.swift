import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A `redis-server` of the test's own for copies of tokenswap to share
/// (`TOKENSWAP_STATE_URL`, CONTRACT §12): a free loopback port, no persistence, a fresh
/// folder; killed by `stop()`.
final class SharedRedis: Sendable {
    let port: UInt16
    let process: ChildProcess
    let directory: String

    var url: String { "redis://127.0.0.1:\(port)" }

    static func start() async throws -> SharedRedis {
        try await offPool { try SharedRedis() }
    }

    private init() throws {
        let (fd, port) = try Loopback.bind()
        close(fd)  // freed for redis-server a moment later; collisions are unlikely
        self.port = port
        directory = NSTemporaryDirectory() + "tokenswap-redis-e2e-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        process = try ChildProcess(
            "redis-server",
            [
                "--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no",
                "--dir", directory, "--daemonize", "no",
            ])
        let giveUp = Date().addingTimeInterval(20)
        while !process.stdout.text.contains("Ready to accept connections") {
            guard !process.hasExited, Date() < giveUp else {
                _ = process.kill()
                throw EndToEndFailure("redis-server did not start: \(process.stderr.text)")
            }
            usleep(20_000)
        }
    }

    func stop() {
        _ = process.kill()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
