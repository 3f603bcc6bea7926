/// Checks for fields we write (RFC 9110 §5.1, §5.5; RFC 9112 §11.1 response splitting):
/// a name is a token, a value has no CR, LF, NUL or other control byte, so nothing taken
/// from input can end a line or start a new field.
enum FieldCheck {
    static func isValidName(_ name: String) -> Bool {
        !name.utf8.isEmpty && allBytes(of: name, satisfy: HTTPGrammar.isToken)
    }

    static func isValidValue(_ value: String) -> Bool {
        allBytes(of: value, satisfy: HTTPGrammar.isFieldValue)
    }

    /// Fields whose value is decided by the encoder from the message itself (framing and
    /// connection management, RFC 9112 §6, §9.6); a caller's copy is never written.
    static func isFramingField(_ name: String) -> Bool {
        HTTPHeaders.namesMatch(name, "Content-Length")
            || HTTPHeaders.namesMatch(name, "Transfer-Encoding")
            || HTTPHeaders.namesMatch(name, "Connection")
    }

    /// Whether every UTF-8 byte of `text` passes `test`: over the string's own storage
    /// when it has it (every native string), which is several times quicker per byte
    /// than walking its `UTF8View`.
    @inline(__always)
    static func allBytes(of text: String, satisfy test: (UInt8) -> Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(test) }
            ?? text.utf8.allSatisfy(test)
    }
}
