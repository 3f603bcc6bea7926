/// What a sealed token is bound to: the provider it was issued for, the OAuth client it
/// belongs to, and what kind of value it is. All three are authenticated as associated
/// data, so a token sealed for one provider, client or kind fails to open for any other.
///
/// The part of the associated data they make (`SealedTokenLayout`) is written once, when
/// the context is made or changed, rather than on every seal and open; the three and those
/// bytes live in one immutable object, so a copy of a context is one reference.
public struct SealingContext: Sendable, Hashable {
    private final class Storage: Sendable {
        let provider: String
        let clientID: String
        let kind: SealedKind
        /// The associated data after the header (`SealedTokenLayout.boundBytes`).
        let boundBytes: [UInt8]

        init(provider: String, clientID: String, kind: SealedKind) {
            self.provider = provider
            self.clientID = clientID
            self.kind = kind
            boundBytes = SealedTokenLayout.boundBytes(
                provider: provider, clientID: clientID, kind: kind)
        }
    }

    private var storage: Storage

    public init(provider: String, clientID: String, kind: SealedKind = .refreshToken) {
        storage = Storage(provider: provider, clientID: clientID, kind: kind)
    }

    public var provider: String {
        get { storage.provider }
        set { storage = Storage(provider: newValue, clientID: clientID, kind: kind) }
    }

    public var clientID: String {
        get { storage.clientID }
        set { storage = Storage(provider: provider, clientID: newValue, kind: kind) }
    }

    public var kind: SealedKind {
        get { storage.kind }
        set { storage = Storage(provider: provider, clientID: clientID, kind: newValue) }
    }

    /// The bytes of the associated data that follow the header.
    var boundBytes: [UInt8] { storage.boundBytes }

    public static func == (a: SealingContext, b: SealingContext) -> Bool {
        a.storage === b.storage
            || (a.provider == b.provider && a.clientID == b.clientID && a.kind == b.kind)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(provider)
        hasher.combine(clientID)
        hasher.combine(kind)
    }
}
