import Foundation
import HTTPClient
import Transport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// ClientBench ours|ours-on-loops|urlsession URL SECONDS CONCURRENCY
// Keeps CONCURRENCY GET requests in flight against URL for SECONDS (after a warm-up of
// the same length) and prints completed requests per second. `ours` sends from plain
// tasks (the cooperative pool); `ours-on-loops` sends from tasks whose executor is one
// of the client's event loops, as handlers that run on the server's loops would. For https with a private CA, set
// TOKENSWAP_CA_FILE (ours) / URLSessionCertificateAuthorityInfoFile (URLSession).

let arguments = CommandLine.arguments
guard arguments.count == 5, let seconds = Double(arguments[3]), let concurrency = Int(arguments[4])
else {
    print("usage: ClientBench ours|urlsession URL SECONDS CONCURRENCY")
    exit(2)
}
let mode = arguments[1]
let url = arguments[2]

/// Runs `concurrency` loops of `request` until `seconds` pass; returns (ok, failed).
func drive(on loops: [EventLoop] = [], _ request: @escaping @Sendable () async -> Bool) async
    -> (Int, Int)
{
    let end = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    return await withTaskGroup(of: (Int, Int).self) { group in
        for worker in 0..<concurrency {
            let executor: (any TaskExecutor)? = loops.isEmpty ? nil : loops[worker % loops.count]
            group.addTask(executorPreference: executor) {
                var ok = 0
                var failed = 0
                while ContinuousClock.now < end {
                    if await request() { ok += 1 } else { failed += 1 }
                }
                return (ok, failed)
            }
        }
        return await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
    }
}

func report(_ name: String, _ counts: (Int, Int), _ elapsed: Duration) {
    let secs = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let rate = Double(counts.0) / secs
    print(
        String(
            format: "%@: %.0f req/s (%d ok, %d failed, %.1f s, %d in flight)",
            name, rate, counts.0, counts.1, secs, concurrency))
}

switch mode {
case "ours", "ours-on-loops":
    var configuration = HTTPClientConfiguration()
    configuration.maxConnectionsPerOrigin = concurrency
    configuration.extraCAFilePath = ProcessInfo.processInfo.environment["TOKENSWAP_CA_FILE"]
    // CLIENT_BENCH_LOOPS=1 gives the client one thread, as `wrk -t1` has.
    let loopCount = ProcessInfo.processInfo.environment["CLIENT_BENCH_LOOPS"].flatMap { Int($0) }
    let loops = EventLoopGroup(loopCount: loopCount)
    let client = try HTTPClient(configuration: configuration, eventLoopGroup: loops)
    let executors = mode == "ours-on-loops" ? loops.loops : []
    let request = try HTTPClientRequest(method: .get, url: url)
    let once: @Sendable () async -> Bool = {
        do {
            let response = try await client.send(request, timeoutSeconds: 10)
            return response.status.code == 200
        } catch {
            return false
        }
    }
    _ = await drive(on: executors, once)  // warm-up: connections opened, TLS sessions made
    let start = ContinuousClock.now
    let counts = await drive(on: executors, once)
    report(
        executors.isEmpty ? "HTTPClient" : "HTTPClient (tasks on loops)", counts,
        ContinuousClock.now - start)
    client.shutdown()
case "urlsession":
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = concurrency
    let session = URLSession(configuration: configuration)
    guard let target = URL(string: url) else { exit(2) }
    let once: @Sendable () async -> Bool = {
        do {
            let (_, response) = try await session.data(from: target)
            return (response as? HTTPURLResponse)?.statusCode == 200
        } catch {
            return false
        }
    }
    _ = await drive(once)
    let start = ContinuousClock.now
    let counts = await drive(once)
    report("URLSession", counts, ContinuousClock.now - start)
default:
    print("mode must be ours or urlsession")
    exit(2)
}
