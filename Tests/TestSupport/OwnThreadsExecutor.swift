import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Threads of their own for the tasks of `.deadlines` suites and, apart from them, of
/// `.compute` suites (`ResourceClass`).
///
/// Every suite of every target runs in one process, and the cooperative pool has as many
/// threads as the machine has cores: two here. A unit suite that computes without
/// awaiting holds a pool thread, and while both are held no continuation anywhere runs,
/// however long ago its sleep ended. A CI run once stalled a drain test's 100 ms sleeps
/// past its handler's 2 s, and the request it was to catch in flight had already been
/// answered. On these threads a deadline suite's continuations wait only for the
/// kernel's scheduler, which shares the cores in milliseconds, not for a pool thread;
/// and a compute suite's loops, moved here, no longer hold the pool at all.
final class OwnThreadsExecutor: TaskExecutor, @unchecked Sendable {
    /// For `.deadlines` suites (one at a time).
    static let deadlines = OwnThreadsExecutor(threadCount: 4)
    /// For `.compute` suites: two, so two loops run at once as they did on the pool.
    static let compute = OwnThreadsExecutor(threadCount: 2)

    private let condition = NSCondition()
    /// Jobs waiting, oldest first.
    private var jobs: [UnownedJob] = []
    /// The executor's threads, as `pthread_self` names them.
    private let threads = Mutex<Set<UInt>>([])

    private init(threadCount: Int) {
        for _ in 0..<threadCount {
            Thread { [self] in
                threads.withLock { _ = $0.insert(UInt(pthread_self())) }
                run()
            }.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Whether this runs on one of the executor's threads (a test asks where it runs).
    var isCurrent: Bool {
        let current = UInt(pthread_self())
        return threads.withLock { $0.contains(current) }
    }
}
