import Foundation
import TestSupport

/// The scripts in Fixtures/, run from the source tree.
enum Fixture {
    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(name).path
    }
}

/// The test certificates, made once per test process by Fixtures/make-pki.sh with the
/// `openssl` CLI into a fresh temporary folder.
struct TestPKI: Sendable {
    let directory: String

    /// Blocks (it runs openssl): reach it only through `ProviderStub.start`, off the pool.
    static let shared: TestPKI? = {
        let directory =
            NSTemporaryDirectory() + "tokenswap-e2e-pki-\(getpid())-\(UUID().uuidString)"
        guard let result = try? ChildProcess.run(Fixture.path("make-pki.sh"), [directory]),
            result.status == .exited(0)
        else { return nil }
        return TestPKI(directory: directory)
    }()

    var caFile: String { directory + "/ca.pem" }
    var otherCAFile: String { directory + "/other-ca.pem" }
    var certificate: String { directory + "/good.pem" }
    var key: String { directory + "/good.key" }
}
