extension StringProtocol {
    /// The text without the leading and trailing characters `isTrimmed` picks, as a
    /// slice (no copy). Foundation-free: the one trimming loop for the key ring's entries
    /// and, above this target, the product's settings and field values.
    public func trimmed(while isTrimmed: (Character) -> Bool) -> SubSequence {
        guard let first = firstIndex(where: { !isTrimmed($0) }),
            let last = lastIndex(where: { !isTrimmed($0) })
        else { return self[endIndex...] }
        return self[first...last]
    }

    /// The text without leading and trailing whitespace (`Character.isWhitespace`: Unicode
    /// White_Space, line breaks included).
    public func trimmingWhitespace() -> String {
        String(trimmed(while: \.isWhitespace))
    }
}
