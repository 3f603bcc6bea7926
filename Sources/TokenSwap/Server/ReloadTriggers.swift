import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// SIGHUP and a periodic tick, delivered on one serial queue: what starts a TLS reload.
///
/// `@unchecked Sendable`: both sources are created and activated in `init` and never
/// replaced (`let`s); afterwards the only call made on them is `cancel()`, which
/// libdispatch documents as safe from any thread. Their handlers run on `queue`.
final class ReloadTriggers: @unchecked Sendable {
    private let hangup: any DispatchSourceSignal
    private let timer: any DispatchSourceTimer

    /// SIGHUP's default action (terminate) is ignored first so only the source sees it.
    init(
        queue: DispatchQueue, tickSeconds: Double,
        onHangup: @escaping @Sendable () -> Void, onTick: @escaping @Sendable () -> Void
    ) {
        signal(SIGHUP, SIG_IGN)
        hangup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        hangup.setEventHandler(handler: onHangup)
        hangup.activate()
        let interval = DispatchTimeInterval.milliseconds(Int(tickSeconds * 1000))
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler(handler: onTick)
        timer.activate()
    }

    func cancel() {
        hangup.cancel()
        timer.cancel()
    }
}
