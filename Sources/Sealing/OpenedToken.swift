/// The result of opening a sealed token.
///
/// `sealedWithActiveKey` is false when an older key of the ring opened it: the refresh
/// handler then reseals the plaintext so tokens under retired keys drain away.
/// `grant` is nil for a token of layout version 1 (sealed before binding and families
/// existed): it has no key and no family, and the refresh that opens it seals its answer
/// in the newest version (CONTRACT §13, §14).
/// The plaintext is a live refresh token, so no textual form of this value shows it.
public struct OpenedToken: Sendable, Equatable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    public let plaintext: [UInt8]
    public let keyID: String
    public let sealedWithActiveKey: Bool
    /// The binding and family sealed with the value (`SealedTokenLayout` version 2).
    public let grant: SealedGrant?
    /// The authenticated parts that name this token (`SealIdentity`); nil for a value this
    /// ring did not open (a legacy format's, CONTRACT §9).
    public let sealIdentity: SealIdentity?

    public init(
        plaintext: [UInt8], keyID: String, sealedWithActiveKey: Bool, grant: SealedGrant? = nil,
        sealIdentity: SealIdentity? = nil
    ) {
        self.plaintext = plaintext
        self.keyID = keyID
        self.sealedWithActiveKey = sealedWithActiveKey
        self.grant = grant
        self.sealIdentity = sealIdentity
    }

    /// The plaintext as UTF-8 text, or nil if it is not valid UTF-8.
    public var plaintextString: String? {
        String(validating: plaintext, as: UTF8.self)
    }

    public var description: String {
        "OpenedToken(keyID: \(keyID), sealedWithActiveKey: \(sealedWithActiveKey), "
            + "grant: \(grant.map(String.init(describing:)) ?? "none"), plaintext: <\(plaintext.count) bytes redacted>)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "keyID": keyID, "sealedWithActiveKey": sealedWithActiveKey,
                "grant": grant.map(String.init(describing:)) ?? "none",
                "plaintext": "<\(plaintext.count) bytes redacted>",
            ])
    }
}
