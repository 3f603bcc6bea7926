import Foundation

/// A running Fixtures/upstream_stub.py: a real HTTP/1.1 (and TLS) peer on an ephemeral
/// loopback port. Killed by `stop()` or when the value is released.
final class UpstreamStub: @unchecked Sendable {
    // @unchecked Sendable: `process` and `port` are set once in init and never
    // reassigned; Process.terminate is safe to call from any thread.
    let port: UInt16
    private let process: Process

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
        var arguments = [Fixture.path("upstream_stub.py")]
        if let tls {
            let pki = TestPKI.shared
            arguments += ["--tls", pki.cert(tls), pki.key(tls)]
        }
        arguments += extra
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        process.standardOutput = output
        // The stub exits when this pipe closes, so a crashed test leaves no server behind.
        process.standardInput = Pipe()
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // The stub prints "PORT <n>" once it listens: no guessing, no sleeping.
        var text = ""
        while !text.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 2, fields[0] == "PORT", let port = UInt16(fields[1]) else {
            process.terminate()
            throw StubError.didNotStart(text)
        }
        self.port = port
    }

    /// SIGTERM ends the stub at once. No waitUntilExit: Foundation's spins a run loop that
    /// can hang off the main thread; Process reaps the child itself.
    func stop() {
        if process.isRunning { process.terminate() }
    }

    deinit {
        stop()
    }

    enum StubError: Error {
        case didNotStart(String)
    }
}
