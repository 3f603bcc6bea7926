import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The IPv4 TCP addresses a process listens on, read from `/proc`: its descriptors'
/// socket inodes matched against `/proc/net/tcp`'s rows in state LISTEN. Exact where a
/// probe by connecting is not: another process may listen on the same port number at
/// another address.
public enum ListeningSockets {
    public struct Address: Hashable, CustomStringConvertible, Sendable {
        public let host: String
        public let port: UInt16
        public init(host: String, port: UInt16) {
            self.host = host
            self.port = port
        }
        public var description: String { "\(host):\(port)" }
    }

    public static func of(pid: Int32) throws -> Set<Address> {
        let directory = "/proc/\(pid)/fd"
        var inodes: Set<Substring> = []
        for entry in try FileManager.default.contentsOfDirectory(atPath: directory) {
            guard
                let target = try? FileManager.default.destinationOfSymbolicLink(
                    atPath: directory + "/" + entry),
                target.hasPrefix("socket:["), target.hasSuffix("]")
            else { continue }
            inodes.insert(Substring(target.dropFirst("socket:[".count).dropLast()))
        }
        let table = try Self.read("/proc/\(pid)/net/tcp")
        var found: Set<Address> = []
        for line in table.split(separator: "\n").dropFirst() {
            // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[3] == "0A", inodes.contains(fields[9]),
                let address = Self.address(fields[1])
            else { continue }
            found.insert(address)
        }
        return found
    }

    /// The whole of a `/proc` file, read until `read` answers 0: the kernel hands a long
    /// table out a page or so per call, and a reader that takes a short read for the end
    /// (or trusts the size `stat` reports, 0) sees only its first rows.
    static func read(_ path: String) throws -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: "open \(path): errno \(errno)") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes {
                Glibc.read(descriptor, $0.baseAddress, $0.count)
            }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "read \(path): errno \(errno)")
            }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `0100007F:1F90` → 127.0.0.1:8080 (the address in host byte order, little-endian here).
    static func address(_ field: Substring) -> Address? {
        let parts = field.split(separator: ":")
        guard parts.count == 2, parts[0].count == 8, let raw = UInt32(parts[0], radix: 16),
            let port = UInt16(parts[1], radix: 16)
        else { return nil }
        let octets = (0..<4).map { String((raw >> (8 * $0)) & 0xFF) }
        return Address(host: octets.joined(separator: "."), port: port)
    }
}
