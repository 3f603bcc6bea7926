import COpenSSL

extension KeyRing {
    /// Parses `kid:key[,kid:key…]`. Blank space around the whole text and around each
    /// entry is ignored (a trailing newline from a secrets file is common); inside an
    /// entry nothing is lenient.
    static func parseKeys(_ text: String) throws(KeyRingError) -> (
        active: SealingKey, older: [SealingKey]
    ) {
        let entries = text.split(separator: ",", omittingEmptySubsequences: false)
        if entries.count == 1, entries[0].trimmed(while: isBlank).isEmpty { throw .empty }
        var keys: [SealingKey] = []
        for (offset, rawEntry) in entries.enumerated() {
            let position = offset + 1
            let entry = rawEntry.trimmed(while: isBlank)
            guard !entry.isEmpty else { throw .emptyEntry(position: position) }
            guard let colon = entry.firstIndex(of: ":") else {
                throw .missingSeparator(position: position)
            }
            let keyID = try validatedKeyID(entry[..<colon], position: position)
            guard !keys.contains(where: { $0.id == keyID }) else {
                throw .duplicateKeyID(position: position, keyID: keyID)
            }
            let keyText = entry[entry.index(after: colon)...]
            keys.append(try decodedKey(keyText, keyID: keyID, position: position))
        }
        guard let active = keys.first else { throw .empty }
        return (active, Array(keys.dropFirst()))
    }

    /// A new `kid:key` entry from RAND_bytes: kid `k` + 8 hex digits, key 32 bytes.
    public static func generateEntry() throws(KeyRingError) -> String {
        var idBytes = [UInt8](repeating: 0, count: 4)
        guard idBytes.withUnsafeMutableBytes(SecureRandom.fill) else { throw .randomSourceFailed }
        let keyID = "k" + Hex.encode(idBytes)
        let key = UnsafeMutableRawBufferPointer.allocate(
            byteCount: SealingKey.byteCount, alignment: 16)
        defer {
            OPENSSL_cleanse(key.baseAddress, key.count)
            key.deallocate()
        }
        guard SecureRandom.fill(key) else { throw .randomSourceFailed }
        return keyID + ":" + Base64URL.encode(UnsafeRawBufferPointer(key))
    }

    /// What may surround an entry: ASCII blanks only, so any other character is the
    /// entry's own and gets refused by its checks.
    private static func isBlank(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\n" || character == "\r"
    }

    private static func validatedKeyID(_ text: Substring, position: Int) throws(KeyRingError)
        -> String
    {
        guard !text.isEmpty else { throw .emptyKeyID(position: position) }
        guard text.utf8.count <= maxKeyIDLength else { throw .keyIDTooLong(position: position) }
        guard text.utf8.allSatisfy(isKeyIDByte) else {
            throw .invalidKeyIDCharacter(position: position)
        }
        return String(text)
    }

    /// `[A-Za-z0-9_-]`: the base64url alphabet, so a kid survives any transport a
    /// token does.
    static func isKeyIDByte(_ byte: UInt8) -> Bool {
        Base64URL.values[Int(byte)] != 0xFF
    }

    /// Decodes the key straight into wiped-on-release storage, never into an Array.
    private static func decodedKey(_ text: Substring, keyID: String, position: Int)
        throws(KeyRingError) -> SealingKey
    {
        var utf8 = Array(text.utf8)
        // Padding is optional on input, but if present it must be exactly right.
        var padding = 0
        while padding < utf8.count, utf8[utf8.count - 1 - padding] == UInt8(ascii: "=") {
            padding += 1
        }
        let unpaddedCount = utf8.count - padding
        defer { utf8.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) } }
        guard padding == 0 || (padding <= 2 && (unpaddedCount + padding) % 4 == 0),
            utf8[..<unpaddedCount].allSatisfy(isKeyIDByte)
        else { throw .keyNotBase64URL(position: position, keyID: keyID) }
        guard let byteCount = Base64URL.decodedLength(characterCount: unpaddedCount) else {
            throw .keyNotBase64URL(position: position, keyID: keyID)
        }
        guard byteCount == SealingKey.byteCount else {
            throw .wrongKeyLength(position: position, keyID: keyID, byteCount: byteCount)
        }
        let key = utf8.withUnsafeBufferPointer { utf8 in
            SealingKey(id: keyID) { storage in
                Base64URL.decode(
                    UnsafeBufferPointer(rebasing: utf8[..<unpaddedCount]), into: storage)
                    == SealingKey.byteCount
            }
        }
        guard let key else { throw .keyNotBase64URL(position: position, keyID: keyID) }
        return key
    }
}
