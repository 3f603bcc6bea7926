/// What a sealed token is bound to: the provider it was issued for and the OAuth client
/// it belongs to. Both are authenticated as associated data, so a token sealed for one
/// provider or client fails to open for any other.
public struct SealingContext: Sendable, Hashable {
    public var provider: String
    public var clientID: String

    public init(provider: String, clientID: String) {
        self.provider = provider
        self.clientID = clientID
    }
}
