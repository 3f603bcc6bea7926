/// A value that must never be printed: client secrets and key ring text. Its description
/// is a fixed placeholder, so string interpolation, `print` and `dump`-style logging of a
/// configuration cannot leak it.
package struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The secret itself, for the one place that must send or use it.
    package let revealed: String

    package init(_ revealed: String) {
        self.revealed = revealed
    }

    package var description: String { "<redacted>" }
    package var debugDescription: String { "<redacted>" }
    /// No children: `dump` and reflection-based printing see only the placeholder.
    package var customMirror: Mirror { Mirror(self, children: [:]) }
}
