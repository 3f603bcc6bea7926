#if canImport(Glibc)
    import Glibc
#endif

/// A file that holds a secret, and the setting that names it: the TLS private key, a
/// legacy service's secret (CONTRACT §9), a `--config` file with client secrets or keys.
/// `check-config` warns when group or others can read one (CONTRACT §15): a key that any
/// local account can copy is no longer the service's alone.
package struct SecretFile: Sendable, Equatable {
    /// The variable (or `--config`) that names the file.
    package let setting: String
    package let path: String

    /// The file's permission bits when group or others may read it, else nil (also when
    /// it cannot be examined: loading has already read it, or said why not).
    var permissionsReadableByOthers: UInt32? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let permissions = UInt32(status.st_mode) & 0o7777
        return permissions & 0o044 != 0 ? permissions : nil
    }

    /// The warning line, or nil when only the owner can read the file.
    var warning: String? {
        guard let permissions = permissionsReadableByOthers else { return nil }
        let octal = String(permissions, radix: 8)
        return "\(setting): \(path) can be read by group or others (mode "
            + "\(String(repeating: "0", count: max(0, 4 - octal.count)) + octal)); "
            + "make it readable by the service's user only (chmod 600)"
    }
}
