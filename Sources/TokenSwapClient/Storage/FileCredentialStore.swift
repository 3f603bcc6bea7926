import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The refresh token in a file only its owner can read (mode 0600), for command-line
/// programs and Linux devices.
///
/// A save writes `<name>.tmp-<n>` beside the file, fsyncs it, renames it over the old one
/// (rename(2) is atomic within a directory) and fsyncs the directory, so the rename
/// itself survives a power loss: after a crash the old token or the new one is there,
/// never half of either, and never readable by others, not even for a moment. A crash
/// before the rename leaves a temporary file holding a token; `load`, the first thing a
/// relaunched session does, removes those.
///
/// A symlink at the path is refused (`unavailable` with `ELOOP`), never followed: whoever
/// could plant one would choose which token the app trusts, or where it writes its own.
public struct FileCredentialStore: CredentialStore {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func load() async throws -> RedactedToken? {
        removeTemporaryFiles()
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
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
        // rename(2) would replace a symlink rather than follow it; refused all the same,
        // as `load` refuses it, so a planted link shows as a store that does not work.
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & 0o170000 == 0o120000 {  // S_IFLNK
            throw CredentialStoreError.unavailable(status: ELOOP)
        }
        let temporary = path + Self.temporaryInfix + String(UInt32.random(in: 0...UInt32.max))
        // O_EXCL | O_NOFOLLOW: never write through a file (or symlink) someone else put there.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CredentialStoreError.unavailable(status: errno) }
        var failure: Int32? = nil
        // Exactly 0600 whatever the umask, which only takes bits away at creation.
        if fchmod(fd, 0o600) != 0 { failure = errno }
        let bytes = Array((refreshToken.revealed + "\n").utf8)
        var written = 0
        while failure == nil, written < bytes.count {
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
        try syncDirectory()
    }

    public func remove() async throws {
        // unlink(2) removes a symlink itself, never its target.
        guard unlink(path) == 0 || errno == ENOENT else {
            throw CredentialStoreError.unavailable(status: errno)
        }
    }

    // MARK: - The directory

    /// `<name>.tmp-<n>`: a save's temporary file, `n` a random `UInt32` in decimal.
    private static let temporaryInfix = ".tmp-"

    /// Where the file lives, and its name there.
    private var location: (directory: String, name: Substring) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path[...]) }
        let directory = path[..<slash]
        return (directory.isEmpty ? "/" : String(directory), path[path.index(after: slash)...])
    }

    /// fsync(2) on the file does not make its new name durable; an fsync of the directory
    /// does. A file system that cannot sync a directory (`EINVAL`) has done what it can.
    private func syncDirectory() throws {
        let fd = open(location.directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw CredentialStoreError.unavailable(status: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 || errno == EINVAL else {
            throw CredentialStoreError.unavailable(status: errno)
        }
    }

    /// Removes the temporary files a crash left between write and rename: each holds a
    /// token. Only names of this store's own shape are touched (unlink(2) removes a
    /// symlink, not its target). Best effort: a directory that cannot be listed is read
    /// as it is. A save that loses its temporary file to a concurrent load fails as
    /// `unavailable` and is retried; the token file itself is never touched.
    private func removeTemporaryFiles() {
        let (directory, name) = location
        guard !name.isEmpty,
            let entries = try? FileManager.default.contentsOfDirectory(atPath: directory)
        else { return }
        let prefix = String(name) + Self.temporaryInfix
        for entry in entries where entry.utf8.starts(with: prefix.utf8) {
            let suffix = entry.utf8.dropFirst(prefix.utf8.count)
            guard (1...10).contains(suffix.count),
                suffix.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else { continue }
            unlink(directory + "/" + entry)
        }
    }
}
