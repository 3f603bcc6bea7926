#if canImport(Glibc)
    import Glibc
#endif

/// Writing to a socket the peer closed raises SIGPIPE, whose default action kills the
/// process. Sends use MSG_NOSIGNAL already; ignoring the signal also covers any write
/// path that does not (e.g. a library writing to a pipe).
package enum BrokenPipe {
    package static func ignore() {
        signal(SIGPIPE, SIG_IGN)
    }
}
