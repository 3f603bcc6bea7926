import Foundation
import TestSupport

/// A certificate and key in a folder of their own, as `TOKENSWAP_TLS_CERT_FILE` and
/// `TOKENSWAP_TLS_KEY_FILE` point at, made from the test PKI's leaves, and the command
/// line clients (`curl`, `openssl s_client`) that talk to a server using them.
struct ServedPair: Sendable {
    let directory: String
    var certificate: String { directory + "/cert.pem" }
    var key: String { directory + "/key.pem" }
    /// Both test CAs: a client trusting this accepts the pair before and after a reload.
    var trust: String { directory + "/trust.pem" }

    /// A folder holding the PKI's `leaf` pair.
    static func make(_ leaf: String = "good") async throws -> ServedPair {
        let pki = try await offPool { TestPKI.shared }
        let directory =
            NSTemporaryDirectory() + "tokenswap-tls-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        let pair = ServedPair(directory: directory)
        let bundle =
            try String(contentsOfFile: pki.caFile, encoding: .utf8)
            + String(contentsOfFile: pki.otherCAFile, encoding: .utf8)
        try bundle.write(toFile: pair.trust, atomically: true, encoding: .utf8)
        try pair.replaceInPlace(certificate: pki.cert(leaf), key: pki.key(leaf))
        // As a deployment keeps it: readable by the service's user only (`check-config`
        // warns otherwise).
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: pair.key)
        return pair
    }

    var environment: [String: String] {
        ["TOKENSWAP_TLS_CERT_FILE": certificate, "TOKENSWAP_TLS_KEY_FILE": key]
    }

    /// Overwrites the files' contents (same inodes): key first, so for a moment the
    /// pair on disk does not match.
    func replaceInPlace(certificate source: String, key keySource: String) throws {
        try Data(contentsOf: URL(fileURLWithPath: keySource)).write(
            to: URL(fileURLWithPath: key))
        try Data(contentsOf: URL(fileURLWithPath: source)).write(
            to: URL(fileURLWithPath: certificate))
    }

    /// Renames new files over the old ones (new inodes), the way a deploy tool does.
    func replaceByRename(certificate source: String, key keySource: String) throws {
        try Data(contentsOf: URL(fileURLWithPath: keySource)).write(
            to: URL(fileURLWithPath: key), options: .atomic)
        try Data(contentsOf: URL(fileURLWithPath: source)).write(
            to: URL(fileURLWithPath: certificate), options: .atomic)
    }

    func write(certificateText text: String) throws {
        try text.write(toFile: certificate, atomically: false, encoding: .utf8)
    }

    /// `openssl s_client` against 127.0.0.1:`port` with `arguments`; what it printed.
    static func sClient(port: UInt16, _ arguments: [String]) async throws
        -> (status: ChildProcess.ExitStatus, output: String)
    {
        try await offPool {
            let run = try ChildProcess.run(
                "/usr/bin/env",
                [
                    "openssl", "s_client", "-connect", "127.0.0.1:\(port)", "-servername",
                    "localhost",
                ] + arguments,
                timeoutSeconds: 20)
            return (run.status, run.stdout + run.stderr)
        }
    }

    /// The issuer's CN of the certificate served on `port`.
    static func servedIssuer(port: UInt16) async throws -> String? {
        let (_, output) = try await sClient(port: port, [])
        return output.split(separator: "\n").first { $0.hasPrefix("issuer=") }.map(String.init)
    }

    /// `curl` GETs of `https://localhost:port/path`, one connection each, in a shell
    /// loop: each line of the result is one request's status, or FAIL.
    func curlLoop(port: UInt16, path: String, count: Int) throws -> ChildProcess {
        let script = """
            for i in $(seq 1 \(count)); do
              curl -sS -o /dev/null -w '%{http_code}\\n' --max-time 10 --cacert '\(trust)' \
                'https://localhost:\(port)\(path)' || echo FAIL
            done
            """
        return try ChildProcess("/bin/bash", ["-c", script])
    }
}
