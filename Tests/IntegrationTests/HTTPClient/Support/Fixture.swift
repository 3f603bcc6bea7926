import Foundation
import TestSupport

/// The scripts in Tests/Fixtures, run from the source tree.
enum Fixture {
    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
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
