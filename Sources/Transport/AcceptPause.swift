/// Why a `Listener` stopped accepting for a while.
package enum AcceptPause: Sendable, Equatable {
    /// Open connections reached `maxConnections`.
    case connectionCap
    /// accept4 failed with EMFILE, ENFILE, ENOBUFS or ENOMEM.
    case resourcesExhausted
}
