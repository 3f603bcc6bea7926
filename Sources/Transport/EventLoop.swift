import CPosix
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One thread that owns a set of channels and their state, and waits for their sockets
/// itself (`epoll_wait`, level-triggered), runs their timers and the work handed to it.
/// Everything a channel or connection does runs on its loop's thread, so that state needs
/// no locks, and a socket event costs no wake-up of another thread (libdispatch on Linux
/// routes every source event and re-arm through its manager thread: two cross-thread
/// wake-ups per event, which was most of a refresh's CPU, docs/perf-log).
///
/// `@unchecked Sendable` is sound: `pending` is behind its Mutex; `channels`, `timers`,
/// `localJobs` and `nextTimerID` are touched only on the loop's thread (every entry point
/// that changes them asserts it or hops there with `execute`); the rest is `let`.
package final class EventLoop: @unchecked Sendable {
    /// Position in its group, for logs and for per-loop tables.
    package let index: Int
    /// One receive buffer per loop: a read copies only the bytes that arrived into the
    /// connection's own buffer, so an idle connection holds no 64 KiB of its own.
    let scratch: ReceiveScratch

    private let epollFD: Int32
    private let wakeFD: Int32
    private let threadID = Atomic<UInt>(0)
    private let pending = Mutex(Pending())
    /// Work queued from the loop's own thread: no lock, no wake-up.
    private var localJobs: [LocalJob] = []
    /// The batch being run; swapped with `localJobs` so both keep their capacity (a
    /// fresh array per batch would cost an allocation per request).
    private var runningJobs: [LocalJob] = []
    /// The channel of each watched descriptor, indexed by the descriptor (small numbers,
    /// reused by the kernel: an array, where a dictionary would hash every event's).
    private var channels: [SocketChannel?] = []
    private var timers = TimerQueue()
    /// How many times `epoll_wait` has returned events (or none, at a timeout): what ran
    /// with the same count ran after the same wait (read on the loop only).
    package private(set) var wait: UInt64 = 0
    /// The latest wait whose batch held every ready socket and whose first pass (hang-ups,
    /// and every event of a channel `isIdle`) has run: every close, and every byte,
    /// that reached such a channel before that wait has been handled. 0 while a first pass
    /// runs, and after a wait that failed or filled the whole batch (some sockets may not
    /// have been reported), until the next complete one (read on the loop only).
    package private(set) var closesSeenThrough: UInt64 = 0
    private static let batchSize = 128

    /// What the loop's own thread queued: a closure, or a Swift task's job kept as it is
    /// (a task resumed on its loop, as a handler is after each `await`, would otherwise
    /// cost a closure allocation per resumption).
    private enum LocalJob {
        case work(() -> Void)
        case task(UnownedJob)
    }

    private struct Pending {
        var jobs: [@Sendable () -> Void] = []
        /// The loop is (about to be) in `epoll_wait` with nothing queued.
        var sleeping = false
    }

    package init(index: Int, receiveScratchBytes: Int = 64 * 1024) {
        self.index = index
        self.scratch = ReceiveScratch(byteCount: receiveScratchBytes)
        epollFD = tokenswap_epoll_create()
        wakeFD = tokenswap_eventfd()
        precondition(epollFD >= 0 && wakeFD >= 0, "epoll or eventfd unavailable")
        _ = tokenswap_epoll_set(epollFD, wakeFD, 0, 1, 0)
        startThread()
    }

    /// Whether the caller runs on this loop's thread.
    package var inLoop: Bool { UInt(pthread_self()) == threadID.load(ordering: .acquiring) }

    /// Runs `work` on this loop, after whatever is already queued.
    package func execute(_ work: @escaping @Sendable () -> Void) {
        if inLoop {
            localJobs.append(.work(work))
            return
        }
        let wake = pending.withLock { pending in
            pending.jobs.append(work)
            defer { pending.sleeping = false }
            return pending.sleeping
        }
        if wake { tokenswap_eventfd_signal(wakeFD) }
    }

    /// Runs `work` on this loop after the current step; called on the loop (so `work`
    /// need not be `@Sendable`: it never leaves this thread).
    func later(_ work: @escaping () -> Void) {
        assertInLoop()
        localJobs.append(.work(work))
    }

    /// Runs a Swift task's job on this loop (the `TaskExecutor` conformance).
    func enqueue(task job: UnownedJob) {
        guard inLoop else {
            return execute { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
        localJobs.append(.task(job))
    }

    /// Traps in debug builds when called off this loop: loop-confined state depends on it.
    package func assertInLoop() {
        assert(inLoop, "not on event loop \(index)")
    }

    /// Calls `handler` on this loop every `intervalSeconds` (clamped as `Deadline` clamps)
    /// until the timer is cancelled.
    package func scheduleRepeating(
        intervalSeconds: Double, handler: @escaping @Sendable () -> Void
    ) -> LoopTimer {
        schedule(at: .after(seconds: intervalSeconds), every: intervalSeconds, handler)
    }

    /// Calls `handler` on this loop once, at `deadline`, unless cancelled first.
    package func schedule(
        at deadline: Deadline, handler: @escaping @Sendable () -> Void
    ) -> LoopTimer {
        schedule(at: deadline, every: nil, handler)
    }

    private func schedule(
        at deadline: Deadline, every interval: Double?, _ handler: @escaping @Sendable () -> Void
    ) -> LoopTimer {
        let entry = TimerEntry(handler: handler, interval: interval)
        if inLoop {
            timers.insert(entry, at: deadline)
        } else {
            execute { [self] in timers.insert(entry, at: deadline) }
        }
        return LoopTimer(entry: entry)
    }

    // MARK: channels

    /// Starts watching `channel`'s socket (no interest yet). On the loop.
    func register(_ channel: SocketChannel) {
        assertInLoop()
        let fd = Int(channel.fd)
        if fd >= channels.count {
            channels.append(contentsOf: repeatElement(nil, count: fd + 1 - channels.count))
        }
        channels[fd] = channel
    }

    /// Sets which readiness of the channel's socket wakes the loop. With neither, the
    /// socket leaves the epoll set: a hang-up is always reported, and would otherwise
    /// wake the loop again and again while nobody reads.
    func watch(_ channel: SocketChannel, read: Bool, write: Bool, wasWatched: Bool) {
        assertInLoop()
        let fd = channel.fd
        if !read && !write {
            if wasWatched { _ = tokenswap_epoll_set(epollFD, fd, 2, 0, 0) }
            return
        }
        _ = tokenswap_epoll_set(epollFD, fd, wasWatched ? 1 : 0, read ? 1 : 0, write ? 1 : 0)
    }

    /// Stops watching and forgets `channel` (before its socket is closed). On the loop.
    func unregister(_ channel: SocketChannel, wasWatched: Bool) {
        assertInLoop()
        if wasWatched { _ = tokenswap_epoll_set(epollFD, channel.fd, 2, 0, 0) }
        if Int(channel.fd) < channels.count { channels[Int(channel.fd)] = nil }
    }

    /// The channel watching descriptor `fd`, if any.
    private func channel(_ fd: Int32) -> SocketChannel? {
        let index = Int(fd)
        return index >= 0 && index < channels.count ? channels[index] : nil
    }

    // MARK: the thread

    private func startThread() {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(
            &thread, nil,
            { context in
                // The loop lives as long as the process: the thread keeps it.
                let loop = Unmanaged<EventLoop>.fromOpaque(context.unsafelyUnwrapped)
                    .takeRetainedValue()
                loop.run()
                return nil
            }, context)
        precondition(created == 0, "cannot start event loop thread")
        threadID.store(UInt(thread), ordering: .releasing)
    }

    private func run() {
        threadID.store(UInt(pthread_self()), ordering: .releasing)
        var fds = [Int32](repeating: 0, count: Self.batchSize)
        var ready = [UInt32](repeating: 0, count: Self.batchSize)
        // The channel of each event, found once before any handler runs: a channel closed
        // by an earlier event is skipped even if its descriptor is reused meanwhile.
        var batch = [SocketChannel?](repeating: nil, count: Self.batchSize)
        while true {
            let timeout = waitMilliseconds()
            let count = Int(
                tokenswap_epoll_wait(epollFD, &fds, &ready, Int32(Self.batchSize), timeout))
            closesSeenThrough = 0
            pending.withLock { $0.sleeping = false }
            guard count >= 0 else { continue }  // EINTR: nothing was reported
            wait &+= 1
            for i in 0..<count {
                if fds[i] == wakeFD {
                    tokenswap_eventfd_drain(wakeFD)
                    ready[i] = 0
                } else {
                    batch[i] = channel(fds[i])
                }
            }
            // First pass: hang-ups, and every event of an idle pooled connection
            // (`isIdle`), before any other event and before the work they queue, so
            // a close or stray bytes that arrived before the wait retire the connection
            // before a request can take it (HTTPClient's and RESPClient's look before
            // writing relies on it, through `closesSeenThrough`).
            for i in 0..<count where ready[i] != 0 {
                guard let channel = batch[i], ready[i] & 4 != 0 || channel.isIdle else {
                    continue
                }
                channel.handle(readable: ready[i] & 1 != 0, writable: ready[i] & 2 != 0)
                ready[i] = 0
            }
            if count < Self.batchSize { closesSeenThrough = wait }
            runLocalJobs()
            for i in 0..<count {
                if ready[i] != 0, let channel = batch[i] {
                    channel.handle(readable: ready[i] & 1 != 0, writable: ready[i] & 2 != 0)
                    runLocalJobs()
                }
                batch[i] = nil
            }
            runDueTimers()
            runQueuedJobs()
        }
    }

    /// How long `epoll_wait` may sleep: not at all with work queued, else until the next
    /// timer (or forever). Marks the loop sleeping under the lock, so `execute` from
    /// another thread knows to wake it.
    private func waitMilliseconds() -> Int32 {
        if !localJobs.isEmpty { return 0 }
        let hasJobs = pending.withLock { pending -> Bool in
            if pending.jobs.isEmpty { pending.sleeping = true }
            return !pending.jobs.isEmpty
        }
        if hasJobs { return 0 }
        guard let next = timers.nextDeadline else { return -1 }
        let left = next.secondsLeft()
        // Round up: waking a millisecond early would only spin back to sleep.
        return Int32(min(left * 1000, 3_600_000).rounded(.up))
    }

    private func runLocalJobs() {
        while !localJobs.isEmpty {
            swap(&localJobs, &runningJobs)
            for job in runningJobs {
                switch job {
                case .work(let work): work()
                case .task(let job): job.runSynchronously(on: asUnownedTaskExecutor())
                }
            }
            runningJobs.removeAll(keepingCapacity: true)
        }
    }

    private func runQueuedJobs() {
        runLocalJobs()
        while true {
            let jobs = pending.withLock { pending -> [@Sendable () -> Void] in
                defer { pending.jobs = [] }
                return pending.jobs
            }
            if jobs.isEmpty { return }
            for job in jobs {
                job()
                runLocalJobs()
            }
        }
    }

    private func runDueTimers() {
        let now = Deadline.now
        while let entry = timers.popDue(at: now) {
            guard !entry.isCancelled else { continue }
            if let interval = entry.interval {
                timers.insert(entry, at: .after(seconds: interval, from: now))
            }
            entry.handler()
            runLocalJobs()
        }
    }
}
