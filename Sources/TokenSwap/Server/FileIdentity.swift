#if canImport(Glibc)
    import Glibc
#endif

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
