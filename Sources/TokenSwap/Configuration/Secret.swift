/// A value that must never be printed: client secrets and key ring text. Its description
/// is a fixed placeholder, so string interpolation, `print` and `dump`-style logging of a
/// configuration cannot leak it.
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The secret itself, for the one place that must send or use it.
    public let revealed: String

    public init(_ revealed: String) {
        self.revealed = revealed
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    /// No children: `dump` and reflection-based printing see only the placeholder.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
