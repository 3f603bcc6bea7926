#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// stdout and stderr written straight to their descriptors, unbuffered (scripts and tests
/// wait for lines), without Foundation's `FileHandle`: full Foundation links ICU.
package enum StandardStream {
    case output
    case error

    var descriptor: Int32 {
        switch self {
        case .output: STDOUT_FILENO
        case .error: STDERR_FILENO
        }
    }

    /// Writes all of `text`, resuming after partial writes; gives up quietly on an error
    /// (a closed pipe must not stop the service).
    package func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(
                    descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue  // a signal arrived before any byte was written
                } else {
                    return
                }
            }
        }
    }
}
