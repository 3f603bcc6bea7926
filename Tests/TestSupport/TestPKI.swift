import Foundation

/// The test certificates, made once per test process by Tests/Fixtures/make-pki.sh with
/// the `openssl` CLI into a fresh temporary folder (the script says what each is): two
/// CAs, a good leaf for localhost/127.0.0.1/::1, one for another host, an expired one,
/// and one signed by the other CA.
public struct TestPKI: Sendable {
    public let directory: String

    /// Blocks while openssl runs: reach it first from a thread of its own (`offPool`),
    /// never on the cooperative pool. Stops the test process if openssl is missing.
    public static let shared: TestPKI = {
        let directory =
            NSTemporaryDirectory() + "tokenswap-test-pki-\(getpid())-\(UUID().uuidString)"
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/make-pki.sh").path
        let made = try? ChildProcess.run(script, [directory])
        precondition(made?.status == .exited(0), "make-pki.sh failed (is openssl installed?)")
        return TestPKI(directory: directory)
    }()

    /// The CA that signed every leaf but `foreign`.
    public var caFile: String { directory + "/ca.pem" }
    /// A CA that signed only `foreign`: trusting it instead of `caFile` must fail.
    public var otherCAFile: String { directory + "/other-ca.pem" }
    /// A leaf certificate: "good", "otherhost", "expired" or "foreign".
    public func cert(_ name: String) -> String { directory + "/\(name).pem" }
    public func key(_ name: String) -> String { directory + "/\(name).key" }
}
