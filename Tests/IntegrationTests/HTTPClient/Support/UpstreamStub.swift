import Foundation
import TestSupport

/// A running Tests/Fixtures/provider_stub.py in its `paths` mode: a real HTTP/1.1 (and
/// TLS) peer on an ephemeral loopback port, its answer chosen by the request's path. Killed by `stop()` or when the value is released.
final class UpstreamStub: Sendable {
    let port: UInt16
    private let process: ChildProcess

    /// Starts a stub without blocking a shared thread: making the PKI and waiting for
    /// Python to listen block, so they run on a thread of their own. (Blocking the two
    /// cooperative threads of a 2-core machine would stall every continuation, and
    /// Dispatch workers are what the event loops run on.)
    static func start(tls: String? = nil, arguments: [String] = []) async throws -> UpstreamStub {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                _ = TestPKI.shared  // made here, once, so tests never build it on the pool
                continuation.resume(
                    with: Result { try UpstreamStub(tls: tls, arguments: arguments) })
            }.start()
        }
    }

    /// - Parameter tls: certificate name from `TestPKI` ("good", "expired", …), or nil.
    private init(tls: String? = nil, arguments extra: [String] = []) throws {
        var arguments = [Fixture.path("provider_stub.py"), "--mode", "paths"]
        if let tls {
            let pki = TestPKI.shared
            arguments += ["--tls", pki.cert(tls), pki.key(tls)]
        }
        arguments += extra
        // The stub exits when its stdin closes, so a crashed test leaves no server behind.
        let process = try ChildProcess("python3", arguments, stdin: .heldOpen)
        self.process = process
        // The stub prints "PORT <n>" once it listens: no guessing, no sleeping.
        guard let portText = process.stdout.waitForLine(prefix: "PORT "),
            let port = UInt16(portText.split(separator: " ").first ?? "")
        else {
            process.kill()
            throw StubError.didNotStart(process.stdout.text)
        }
        self.port = port
    }

    /// SIGTERM ends the stub at once; ChildProcess reaps it.
    func stop() {
        process.signal(SIGTERM)
    }

    deinit {
        stop()
    }

    enum StubError: Error {
        case didNotStart(String)
    }
}
