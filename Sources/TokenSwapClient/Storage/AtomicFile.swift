import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small secret in a file only its owner can read (mode 0600): the rules
/// `FileCredentialStore` and `FileDPoPKeyStore` share.
///
/// A write puts `<name>.tmp-<n>` beside the file, fsyncs it, renames it over the old one
/// (rename(2) is atomic within a directory) and fsyncs the directory, so the rename itself
/// survives a power loss: after a crash the old contents or the new are there, never half
/// of either, and never readable by others, not even for a moment. A crash before the
/// rename leaves a temporary file holding the secret; `read`, the first thing a relaunched
/// program does, removes those.
///
/// A symlink at the path is refused (`unavailable` with `ELOOP`), never followed: whoever
/// could plant one would choose which secret the app trusts, or where it writes its own.
struct AtomicFile: Sendable {
    let path: String

    /// The contents; nil when there is no file.
    func read() throws(CredentialStoreError) -> [UInt8]? {
        removeTemporaryFiles()
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .unavailable(status: errno)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }  // a signal, not an error: read again
                throw .unavailable(status: errno)
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    func write(_ bytes: [UInt8]) throws(CredentialStoreError) {
        // rename(2) would replace a symlink rather than follow it; refused all the same,
        // as `read` refuses it, so a planted link shows as a store that does not work.
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & 0o170000 == 0o120000 {  // S_IFLNK
            throw .unavailable(status: ELOOP)
        }
        let temporary = path + Self.temporaryInfix + String(UInt32.random(in: 0...UInt32.max))
        // O_EXCL | O_NOFOLLOW: never write through a file (or symlink) someone else put there.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .unavailable(status: errno) }
        var failure: Int32? = nil
        // Exactly 0600 whatever the umask, which only takes bits away at creation.
        if fchmod(fd, 0o600) != 0 { failure = errno }
        var written = 0
        while failure == nil, written < bytes.count {
            let count = bytes[written...].withUnsafeBytes {
                systemWrite(fd, $0.baseAddress, $0.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            written += count
        }
        // The data must be on disk before the rename makes it the file.
        if failure == nil, fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw .unavailable(status: failure)
        }
        try syncDirectory()
    }

    func remove() throws(CredentialStoreError) {
        // unlink(2) removes a symlink itself, never its target.
        guard unlink(path) == 0 || errno == ENOENT else {
            throw .unavailable(status: errno)
        }
    }

    // MARK: - The directory

    /// `<name>.tmp-<n>`: a write's temporary file, `n` a random `UInt32` in decimal.
    private static let temporaryInfix = ".tmp-"

    /// Where the file lives, and its name there.
    private var location: (directory: String, name: Substring) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path[...]) }
        let directory = path[..<slash]
        return (directory.isEmpty ? "/" : String(directory), path[path.index(after: slash)...])
    }

    /// fsync(2) on the file does not make its new name durable; an fsync of the directory
    /// does. A file system that cannot sync a directory (`EINVAL`) has done what it can.
    private func syncDirectory() throws(CredentialStoreError) {
        let fd = open(location.directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .unavailable(status: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 || errno == EINVAL else {
            throw .unavailable(status: errno)
        }
    }

    /// Removes the temporary files a crash left between write and rename: each holds a
    /// secret. Only names of this file's own shape are touched (unlink(2) removes a
    /// symlink, not its target). Best effort: a directory that cannot be listed is read
    /// as it is. A write that loses its temporary file to a concurrent read fails as
    /// `unavailable` and is retried; the file itself is never touched.
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

/// read(2) and write(2) under names `AtomicFile`'s own `read` and `write` do not shadow.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
