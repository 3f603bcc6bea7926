/// Checks for fields we write (RFC 9110 §5.1, §5.5; RFC 9112 §11.1 response splitting):
/// a name is a token, a value has no CR, LF, NUL or other control byte, so nothing taken
/// from input can end a line or start a new field.
enum FieldCheck {
    static func isValidName(_ name: String) -> Bool {
        !name.utf8.isEmpty && name.utf8.allSatisfy(HTTPGrammar.isToken)
    }

    static func isValidValue(_ value: String) -> Bool {
        value.utf8.allSatisfy(HTTPGrammar.isFieldValue)
    }

    /// Fields whose value is decided by the encoder from the message itself (framing and
    /// connection management, RFC 9112 §6, §9.6); a caller's copy is never written.
    static func isFramingField(_ name: String) -> Bool {
        HTTPHeaders.namesMatch(name, "Content-Length")
            || HTTPHeaders.namesMatch(name, "Transfer-Encoding")
            || HTTPHeaders.namesMatch(name, "Connection")
    }
}
