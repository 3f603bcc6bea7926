/// What a sealed token is bound to: the provider it was issued for, the OAuth client it
/// belongs to, and what kind of value it is. All three are authenticated as associated
/// data, so a token sealed for one provider, client or kind fails to open for any other.
public struct SealingContext: Sendable, Hashable {
    public var provider: String
    public var clientID: String
    public var kind: SealedKind

    public init(provider: String, clientID: String, kind: SealedKind = .refreshToken) {
        self.provider = provider
        self.clientID = clientID
        self.kind = kind
    }
}
