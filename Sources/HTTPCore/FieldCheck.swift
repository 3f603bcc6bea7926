/// Checks for fields we write (RFC 9110 §5.1, §5.5; RFC 9112 §11.1 response splitting):
/// a name is a token, a value has no CR, LF, NUL or other control byte, so nothing taken
/// from input can end a line or start a new field.
enum FieldCheck {
    static func isValidName(_ name: String) -> Bool {
        name.utf8.withContiguousStorageIfAvailable { utf8 in
            !utf8.isEmpty && utf8.allSatisfy(HTTPGrammar.isToken)
        } ?? (!name.utf8.isEmpty && name.utf8.allSatisfy(HTTPGrammar.isToken))
    }

    /// Eight bytes at a time over the string's own storage, byte by byte only where a word
    /// holds a control byte (`ByteWord.hasControl`: a tab, or a value that fails).
    static func isValidValue(_ value: String) -> Bool {
        value.utf8.withContiguousStorageIfAvailable { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            var offset = 0
            while utf8.count - offset >= 8 {
                if ByteWord.hasControl(ByteWord.load(bytes, at: offset)),
                    !utf8[offset..<(offset + 8)].allSatisfy(HTTPGrammar.isFieldValue)
                {
                    return false
                }
                offset += 8
            }
            return utf8[offset...].allSatisfy(HTTPGrammar.isFieldValue)
        } ?? value.utf8.allSatisfy(HTTPGrammar.isFieldValue)
    }

    /// Fields whose value is decided by the encoder from the message itself (framing and
    /// connection management, RFC 9112 §6, §9.6); a caller's copy is never written.
    /// The name's length picks the one name it could be.
    static func isFramingField(_ name: String) -> Bool {
        switch name.utf8.count {
        case 14: HTTPHeaders.namesMatch(name, "Content-Length")
        case 17: HTTPHeaders.namesMatch(name, "Transfer-Encoding")
        case 10: HTTPHeaders.namesMatch(name, "Connection")
        default: false
        }
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
