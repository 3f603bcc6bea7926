import Dispatch
import Logging
import Synchronization
import TLS

#if canImport(Glibc)
    import Glibc
#endif

/// Reloads the main port's certificate and key on SIGHUP and when either file changes
/// (CONTRACT §10). Files are polled (inode, size, modification time) rather than watched
/// with inotify: polling also sees a Kubernetes Secret's symlink swap and a replaced
/// parent directory, and once a second costs two `stat` calls.
///
/// A new pair is used only after it loads and the key matches the certificate; a bad
/// one is logged (the file names and OpenSSL's reason, never key bytes) and the last
/// good pair keeps serving. Open connections keep the pair they were accepted with.
package final class TLSCertificateReloader: Sendable {
    private let store: TLSServerContextStore
    private let logger: Logger
    private let metrics: ServiceMetrics
    private let queue = DispatchQueue(label: "tokenswap.tls-reload")
    /// What the files looked like at the last poll (nil: unreadable then).
    private let lastSeen: Mutex<[FileIdentity?]>
    private let triggers = Mutex<ReloadTriggers?>(nil)

    init(store: TLSServerContextStore, logger: Logger, metrics: ServiceMetrics) {
        self.store = store
        self.logger = logger
        self.metrics = metrics
        lastSeen = Mutex(Self.identities(of: store))
    }

    /// Starts the SIGHUP handler and the file poll.
    func start(pollIntervalSeconds: Double) {
        let triggers = ReloadTriggers(
            queue: queue, tickSeconds: pollIntervalSeconds,
            onHangup: { [self] in reload(trigger: "SIGHUP") },
            onTick: { [self] in pollFiles() })
        self.triggers.withLock { $0 = triggers }
    }

    func stop() {
        triggers.withLock { triggers in
            triggers?.cancel()
            triggers = nil
        }
    }

    private func pollFiles() {
        let now = Self.identities(of: store)
        let changed = lastSeen.withLock { last in
            defer { last = now }
            return last != now
        }
        // A writer may replace the two files one after the other: the first change may
        // find a mismatched pair (refused, logged); the second change loads the good one.
        if changed { reload(trigger: "file change") }
    }

    /// Loads the pair again and serves it if it is good; runs on `queue`.
    func reload(trigger: String) {
        do {
            let context = try store.reload()
            metrics.tlsCertificateServed(notAfterSeconds: context.notAfterSeconds)
            logger.notice(
                "tls certificate reloaded",
                metadata: [
                    "trigger": "\(trigger)", "certificate": "\(store.certificateChainFile)",
                    "not_after": "\(context.notAfterSeconds)",
                ])
        } catch {
            logger.error(
                "tls certificate reload refused; the previous pair keeps serving",
                metadata: ["trigger": "\(trigger)", "reason": "\(error)"])
        }
    }

    private static func identities(of store: TLSServerContextStore) -> [FileIdentity?] {
        [FileIdentity(path: store.certificateChainFile), FileIdentity(path: store.keyFile)]
    }
}

/// What tells a file's new contents from its old ones without reading it: the inode
/// (a rename or a symlink swap gives a new one), the size and the modification time
/// to the nanosecond (an in-place rewrite). `stat` follows symlinks, as OpenSSL's open
/// does.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int

    /// nil when the file cannot be `stat`ed (missing, no permission).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
    }
}
