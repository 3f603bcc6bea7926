/// A JSON value (RFC 8259) as the token endpoints need it: objects keep their members in
/// order, and numbers keep the exact text the provider sent, so fields passed through
/// are re-serialised unchanged (no float rounding of large integers).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number's text as it appeared, already checked against the RFC 8259 grammar.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([Member])

    public struct Member: Sendable, Hashable {
        public var name: String
        public var value: JSONValue

        public init(_ name: String, _ value: JSONValue) {
            self.name = name
            self.value = value
        }
    }

    /// The first member of that name, if this is an object.
    public subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}
