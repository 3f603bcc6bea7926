import Foundation
import TestSupport

/// The test certificates, made once per test process by Fixtures/make-pki.sh with the
/// `openssl` CLI into a fresh temporary folder (see the script for what each is).
struct TestPKI: Sendable {
    let directory: String

    static let shared: TestPKI = {
        let directory =
            NSTemporaryDirectory() + "tokenswap-client-pki-\(getpid())-\(UUID().uuidString)"
        let status = Fixture.run(Fixture.path("make-pki.sh"), [directory])
        precondition(status == 0, "make-pki.sh failed (is openssl installed?)")
        return TestPKI(directory: directory)
    }()

    var caFile: String { directory + "/ca.pem" }
    func cert(_ name: String) -> String { directory + "/\(name).pem" }
    func key(_ name: String) -> String { directory + "/\(name).key" }
}

enum Fixture {
    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(name).path
    }

    /// Runs a program to completion, output discarded; returns its exit status.
    static func run(_ program: String, _ arguments: [String]) -> Int32 {
        guard let result = try? ChildProcess.run(program, arguments),
            case .exited(let code) = result.status
        else { return -1 }
        return code
    }
}
