import Synchronization

/// The server's current certificate and key, replaced only by a pair that loads and
/// matches (CONTRACT §10): a bad new pair leaves the last good one in place. New
/// connections take `context`; open ones keep the context they were made from.
package final class TLSServerContextStore: Sendable {
    package let certificateChainFile: String
    package let keyFile: String
    private let current: Mutex<TLSServerContext>

    /// Loads the pair; a bad pair at start-up is an error (there is no last good one).
    package init(certificateChainFile: String, keyFile: String) throws(TLSFailure) {
        self.certificateChainFile = certificateChainFile
        self.keyFile = keyFile
        let context = try TLSServerContext(
            certificateChainFile: certificateChainFile, keyFile: keyFile)
        current = Mutex(context)
    }

    /// The pair new connections use.
    package var context: TLSServerContext { current.withLock { $0 } }

    /// Loads the files again and, when they load and match, serves them from now on.
    /// - Throws: why the new pair was refused; the current one is kept.
    @discardableResult
    package func reload() throws(TLSFailure) -> TLSServerContext {
        let context = try TLSServerContext(
            certificateChainFile: certificateChainFile, keyFile: keyFile)
        current.withLock { $0 = context }
        return context
    }
}
