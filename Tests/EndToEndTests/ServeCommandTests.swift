import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `tokenswap serve` binary as a child process: it must print its address,
/// serve /healthz, and on SIGTERM finish a request already in flight, then exit 0.
///
/// The binary is the one built next to this test bundle (`swift build --build-tests`
/// builds it), or `TOKENSWAP_BINARY`.
@Suite(.resourceClass(.processes)) struct ServeCommandTests {
    /// Starts `tokenswap serve` on an ephemeral port and returns it with its port, read
    /// from the one line it prints when listening.
    /// - Parameter fileLimit: run under `ulimit -n` this low (through /bin/sh).
    ///
    /// Waiting for the line blocks, so it waits on a thread of its own: this suite's
    /// tests launch at once, and two blocked cooperative threads stall the whole test
    /// process (a served request in flight then outlasts its body deadline).
    static func launch(fileLimit: Int? = nil) async throws -> (ChildProcess, UInt16) {
        try await offPool { try launchBlocking(fileLimit: fileLimit) }
    }

    private static func launchBlocking(fileLimit: Int?) throws -> (ChildProcess, UInt16) {
        // --sandbox: serving needs a configuration, and the sandbox needs none.
        let arguments = ["serve", "--sandbox", "--host", "127.0.0.1", "--port", "0"]
        var environment = ProcessInfo.processInfo.environment
        environment["TOKENSWAP_LOG_LEVEL"] = "warning"
        let child: ChildProcess
        if let fileLimit {
            child = try ChildProcess(
                "/bin/sh",
                [
                    "-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"",
                    try TokenSwapBinary.url().path,
                ]
                    + arguments, environment: environment)
        } else {
            child = try ChildProcess(
                try TokenSwapBinary.url().path, arguments, environment: environment)
        }
        guard let portText = child.stdout.waitForLine(prefix: "tokenswap listening on 127.0.0.1:"),
            let port = UInt16(portText)
        else {
            child.kill()
            throw RawClient.Failure(
                description: "no listening line; stdout: \(child.stdout.text.prefix(500))")
        }
        return (child, port)
    }

    /// The exit code within `seconds`, nil if still running (a signal death is its negation).
    static func exitStatus(of child: ChildProcess, withinSeconds seconds: Double) async
        -> Int32?
    {
        switch await child.exitStatus(timeoutSeconds: seconds) {
        case .exited(let code): code
        case .signalled(let signal): -signal
        case nil: nil
        }
    }

    @Test func servesHealthzAndTheJSON404() async throws {
        let (process, port) = try await Self.launch()
        defer { process.kill() }
        let client = try RawClient(port: port)
        try await client.send(
            "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /other HTTP/1.1\r\nHost: x\r\n\r\n")
        let health = try await client.readResponse()
        #expect(health.statusCode == 200)
        #expect(health.bodyText == #"{"status":"ok"}"#)
        #expect(health.header("Content-Type") == "application/json")
        #expect(health.header("Date") != nil)
        let missing = try await client.readResponse()
        #expect(missing.statusCode == 404)
        #expect(missing.bodyText.hasPrefix(#"{"error":"not_found","error_description":""#))
        process.signal(SIGINT)
        #expect(await Self.exitStatus(of: process, withinSeconds: 30) == 0)
    }

    @Test func sigtermDrainsARequestInFlightThenExitsZero() async throws {
        let (process, port) = try await Self.launch()
        defer { process.kill() }

        let idle = try RawClient(port: port)
        try await idle.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await idle.readResponse().statusCode == 200)

        // In flight without a test-only route: the head is in, the body is not. (Whether
        // the server has read the head yet when the signal comes does not matter: a
        // request already sent is not idle either way, DrainTests.)
        let inFlight = try RawClient(port: port)
        try await inFlight.send("GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\n\r\nbod")

        process.signal(SIGTERM)
        // The idle keep-alive connection is closed at once; the process keeps running
        // for the request it has not finished.
        #expect(try await idle.readsEOF())
        #expect(await Self.exitStatus(of: process, withinSeconds: 0.3) == nil)

        try await inFlight.send("y!!")
        let response = try await inFlight.readResponse()
        #expect(response.statusCode == 200)
        #expect(response.header("Connection") == "close")
        #expect(try await inFlight.readsEOF())
        #expect(await Self.exitStatus(of: process, withinSeconds: 30) == 0)
    }

    /// CPU seconds the process has used (utime + stime from /proc/PID/stat).
    static func cpuSeconds(of pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name, which is in parentheses and may hold spaces.
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // utime and stime are fields 14 and 15 of the whole line: 11 and 12 after ")".
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12])
        else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    @Test func outOfFileDescriptorsPausesAcceptingWithoutSpinningThenRecovers() async throws {
        // 40: the connection cap is clamped below the limit (OpenFileLimit.reserve keeps
        // 20 of 40 for upstream sockets, logs and the loops' own descriptors), so half
        // the 40 clients below are served and half wait, and the waiting ones fit once
        // the served ones leave. (At 32 the reserve leaves a cap of 16: 24 waiting would
        // not fit in 16, and the test would wait for idle timeouts.)
        let (process, port) = try await Self.launch(fileLimit: 40)
        defer { process.kill() }
        // More connections than the process may hold: the kernel completes every
        // handshake; accepting pauses at the cap (or on EMFILE) for the rest.
        var clients: [RawClient] = []
        for _ in 0..<40 {
            let client = try RawClient(port: port, receiveTimeoutSeconds: 0.3)
            try await client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            clients.append(client)
        }
        var served: [RawClient] = []
        var waiting: [RawClient] = []
        defer { clients.removeAll() }
        // The server is answering once one answer is in; then each client gets 0.3 s to
        // show it was served (one served but slow to answer only joins the waiting ones,
        // which are read to the end below and let go one by one).
        try await pollUntil(every: .milliseconds(10)) {
            clients.contains { Loopback.hasBytesToRead($0.fd) }
        }
        for client in clients {
            if (try? await client.readResponse().statusCode) == 200 {
                served.append(client)
            } else {
                waiting.append(client)
            }
        }
        #expect(!served.isEmpty)
        #expect(!waiting.isEmpty)
        // While out of descriptors the accept source is suspended and retried on a
        // timer: a second of it costs almost no CPU (a spinning accept loop costs ~1 s).
        let cpuBefore = try Self.cpuSeconds(of: process.pid)
        // Time itself is what is tested: the CPU one second of being out of descriptors
        // costs.
        try await Task.sleep(for: .seconds(1))
        let cpuUsed = try Self.cpuSeconds(of: process.pid) - cpuBefore
        #expect(cpuUsed < 0.3)
        // Descriptors come back when clients leave; the waiting ones are then served.
        clients.removeAll()
        served.removeAll()
        while !waiting.isEmpty {
            // Let go once answered: its descriptor is then free for the next.
            let client = waiting.removeFirst()
            #expect(try await client.readResponseEventually(seconds: 30).statusCode == 200)
        }
        process.signal(SIGTERM)
        #expect(await Self.exitStatus(of: process, withinSeconds: 30) == 0)
    }
}
