/// A token, code or secret held by the client kit. Its `description`, `debugDescription`
/// and mirror (what `print`, `dump`, string interpolation and debuggers show) never
/// contain the value, so a token cannot reach a log line or an error text by accident;
/// `revealed` is the one deliberate way out (to put it on the wire or in storage).
public struct RedactedToken: Sendable, Hashable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    private let value: String

    public init(_ value: String) {
        self.value = value
    }

    /// The token itself. Only for the wire and for storage.
    public var revealed: String { value }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "RedactedToken(<redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
