import Foundation
import TestSupport

/// The scripts in Fixtures/, run from the source tree.
enum Fixture {
    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(name).path
    }

    /// A script in Tests/Fixtures, shared with the other test targets and the proofs.
    static func shared(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures")
            .appendingPathComponent(name).path
    }
}
