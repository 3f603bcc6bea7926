import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Waits for the first of some signals, through DispatchSourceSignal (no work in a C
/// signal handler). Each signal's default action is ignored first, otherwise SIGTERM
/// would kill the process before the source could see it.
package final class ShutdownSignal {
    private let sources: [any DispatchSourceSignal]
    private let stream: AsyncStream<Int32>

    /// Starts watching at once: a signal that arrives before `wait()` is kept.
    package init(signals: [Int32]) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.stream = stream
        let queue = DispatchQueue(label: "tokenswap.signals")
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.activate()
            return source
        }
    }

    /// The first signal received.
    package func wait() async -> Int32 {
        for await number in stream { return number }
        return SIGTERM
    }
}
