/// The result of opening a sealed token.
///
/// `sealedWithActiveKey` is false when an older key of the ring opened it: the refresh
/// handler then reseals the plaintext so tokens under retired keys drain away.
/// The plaintext is a live refresh token, so no textual form of this value shows it.
public struct OpenedToken: Sendable, Equatable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    public let plaintext: [UInt8]
    public let keyID: String
    public let sealedWithActiveKey: Bool

    public init(plaintext: [UInt8], keyID: String, sealedWithActiveKey: Bool) {
        self.plaintext = plaintext
        self.keyID = keyID
        self.sealedWithActiveKey = sealedWithActiveKey
    }

    /// The plaintext as UTF-8 text, or nil if it is not valid UTF-8.
    public var plaintextString: String? {
        String(validating: plaintext, as: UTF8.self)
    }

    public var description: String {
        "OpenedToken(keyID: \(keyID), sealedWithActiveKey: \(sealedWithActiveKey), "
            + "plaintext: <\(plaintext.count) bytes redacted>)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "keyID": keyID, "sealedWithActiveKey": sealedWithActiveKey,
                "plaintext": "<\(plaintext.count) bytes redacted>",
            ])
    }
}
