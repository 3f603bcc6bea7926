/// Why key ring text (`kid:key[,kid:key…]`) was refused.
///
/// Positions count entries from 1. Messages name the entry and, once the kid is known
/// to be well formed, the kid; they never contain key text. A malformed kid is not
/// echoed either: an operator who swapped kid and key would otherwise see the key.
public enum KeyRingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text holds no entries at all.
    case empty
    /// An entry between commas is blank.
    case emptyEntry(position: Int)
    /// An entry has no `:` between kid and key.
    case missingSeparator(position: Int)
    /// The kid before `:` is empty.
    case emptyKeyID(position: Int)
    /// The kid is longer than 16 characters.
    case keyIDTooLong(position: Int)
    /// The kid has a character outside `[A-Za-z0-9_-]`.
    case invalidKeyIDCharacter(position: Int)
    /// The same kid appears twice.
    case duplicateKeyID(position: Int, keyID: String)
    /// The key is not base64url (or is non-canonical, or has misplaced padding).
    case keyNotBase64URL(position: Int, keyID: String)
    /// The key decodes, but not to exactly 32 bytes.
    case wrongKeyLength(position: Int, keyID: String, byteCount: Int)
    /// RAND_bytes failed while generating a key.
    case randomSourceFailed

    public var description: String {
        switch self {
        case .empty:
            "key ring is empty; expected kid:key[,kid:key...]"
        case .emptyEntry(let position):
            "key ring entry \(position) is empty"
        case .missingSeparator(let position):
            "key ring entry \(position) has no ':' between kid and key"
        case .emptyKeyID(let position):
            "key ring entry \(position) has an empty kid"
        case .keyIDTooLong(let position):
            "key ring entry \(position): kid is longer than \(KeyRing.maxKeyIDLength) characters"
        case .invalidKeyIDCharacter(let position):
            "key ring entry \(position): kid may contain only A-Z a-z 0-9 _ -"
        case .duplicateKeyID(let position, let keyID):
            "key ring entry \(position): kid '\(keyID)' appears more than once"
        case .keyNotBase64URL(let position, let keyID):
            "key ring entry \(position) (kid '\(keyID)'): key is not base64url"
        case .wrongKeyLength(let position, let keyID, let byteCount):
            "key ring entry \(position) (kid '\(keyID)'): key is \(byteCount) bytes, "
                + "expected \(SealingKey.byteCount)"
        case .randomSourceFailed:
            "RAND_bytes failed while generating a key"
        }
    }
}
