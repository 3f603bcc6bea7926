import Foundation

/// The `tokenswap` binary the tests run as a child process: `TOKENSWAP_BINARY`, or the
/// one built next to this test bundle (`swift build --build-tests` builds it).
public enum TokenSwapBinary {
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    public static func url() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["TOKENSWAP_BINARY"] {
            return URL(fileURLWithPath: path)
        }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidate = bundle.appendingPathComponent("tokenswap")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw Missing(description: "no tokenswap binary at \(candidate.path); build it first")
        }
        return candidate
    }
}
