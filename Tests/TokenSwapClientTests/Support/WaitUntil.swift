import Foundation
import Testing

/// Yields until `condition` holds, so a test can wait for a task to reach a point it
/// cannot be told about; records an issue (rather than hanging) after `seconds`.
func waitUntil(
    seconds: Double = 30, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async -> Bool
) async {
    let deadline = Date().addingTimeInterval(seconds)
    while await !condition() {
        guard Date() < deadline else {
            Issue.record("the condition did not come true", sourceLocation: sourceLocation)
            return
        }
        await Task.yield()
    }
}
