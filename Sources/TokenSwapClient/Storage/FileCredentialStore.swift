import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The refresh token in a file only its owner can read (mode 0600), for command-line
/// programs and Linux devices. A save writes a new file beside it and renames it over the
/// old one (rename(2) is atomic within a directory), so a crash leaves the old token or
/// the new one, never half of either, and the file is never readable by others, not even
/// for a moment.
public struct FileCredentialStore: CredentialStore {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func load() async throws -> RedactedToken? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw CredentialStoreError.unavailable(status: errno)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }  // a signal, not an error: read again
                throw CredentialStoreError.unavailable(status: errno)
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        let text = String(decoding: bytes, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : RedactedToken(text)
    }

    public func save(_ refreshToken: RedactedToken) async throws {
        let temporary = path + ".tmp-\(UInt32.random(in: 0...UInt32.max))"
        // O_EXCL: never write through a file (or symlink) someone else put there.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CredentialStoreError.unavailable(status: errno) }
        let bytes = Array((refreshToken.revealed + "\n").utf8)
        var written = 0
        var failure: Int32? = nil
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            written += count
        }
        // The data must be on disk before the rename makes it the token.
        if failure == nil, fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw CredentialStoreError.unavailable(status: failure)
        }
    }

    public func remove() async throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw CredentialStoreError.unavailable(status: errno)
        }
    }
}
