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
        /// The associated data after the header: provider and client id, each with its
        /// length as 64 bits big-endian, then `0xFF` and the kind unless it is a refresh
        /// token.
        let boundBytes: [UInt8]

        init(provider: String, clientID: String, kind: SealedKind) {
            self.provider = provider
            self.clientID = clientID
            self.kind = kind
            var bytes: [UInt8] = []
            bytes.reserveCapacity(16 + provider.utf8.count + clientID.utf8.count + 2)
            for field in [provider, clientID] {
                // 64 bits: no String can be long enough for the prefix to wrap and collide.
                let count = UInt64(field.utf8.count)
                for shift in stride(from: 56, through: 0, by: -8) {
                    bytes.append(UInt8(truncatingIfNeeded: count >> UInt64(shift)))
                }
                bytes.append(contentsOf: field.utf8)
            }
            if kind != .refreshToken { bytes += [0xFF, kind.rawValue] }
            boundBytes = bytes
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
