import COpenSSL

/// The keys that seal and open refresh tokens: the first key seals, every key opens.
///
/// Parsed once from `kid:key[,kid:key…]` and immutable afterwards, so one instance is
/// shared by every connection. Key bytes live in `SealingKey` storage that is wiped when
/// the ring is released; no textual form of a ring shows key material.
/// See `SealedTokenLayout` for the sealed format.
public final class KeyRing: Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public static let maxKeyIDLength = 16

    /// The key that seals; also `keys[0]`.
    let activeKey: SealingKey
    /// All keys in ring order, the active one first.
    let keys: [SealingKey]

    init(activeKey: SealingKey, olderKeys: [SealingKey]) {
        self.activeKey = activeKey
        self.keys = [activeKey] + olderKeys
    }

    /// Parses key ring text; see `KeyRingError` for what is refused.
    public convenience init(parsing text: String) throws(KeyRingError) {
        let parsed = try Self.parseKeys(text)
        self.init(activeKey: parsed.active, olderKeys: parsed.older)
    }

    /// A one-key ring from fresh random bytes, for the sandbox and tests: tokens it seals
    /// do not outlive the process.
    public static func ephemeral() throws(KeyRingError) -> KeyRing {
        try KeyRing(parsing: generateEntry())
    }

    /// The kid of the key that seals.
    public var activeKeyID: String { activeKey.id }

    /// Every kid, the active one first.
    public var keyIDs: [String] { keys.map(\.id) }

    public var description: String { "KeyRing(keyIDs: \(keyIDs))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["keyIDs": keyIDs]) }
}
