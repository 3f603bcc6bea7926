/// What a sealed token of layout version 2 carries besides the provider's value
/// (`SealedTokenLayout`): the DPoP key it is bound to (CONTRACT §13) and the grant family
/// it belongs to (§14). Authenticated with the token, so a client can read none of it and
/// change none of it.
///
/// The family id is random and never leaves the seal: it names the grant in the state
/// store (as a digest) for revocation and reuse detection, so one grant's tokens can be
/// refused together.
public struct SealedGrant: Sendable, Equatable, CustomStringConvertible {
    public static let familyIDByteCount = 16
    public static let thumbprintByteCount = 32

    /// The RFC 7638 SHA-256 thumbprint of the DPoP key the token is bound to (32 bytes),
    /// or nil for a token that refreshes without a proof (CONTRACT §13).
    public let thumbprint: [UInt8]?
    /// The grant family (CONTRACT §14): 16 random bytes made at the swap or device
    /// approval and kept by every refresh.
    public let familyID: [UInt8]
    /// When the grant began, in Unix seconds (the consent, or the first refresh of a token
    /// sealed before families existed): the start of its lifetime (CONTRACT §14).
    public let startTime: UInt64
    /// The generation in the family: 0 at the swap, one more at every refresh, saturating
    /// (CONTRACT §14's reuse detection).
    public let generation: UInt64

    /// Nil when the family id or the thumbprint has the wrong length.
    public init?(thumbprint: [UInt8]?, familyID: [UInt8], startTime: UInt64, generation: UInt64) {
        guard familyID.count == Self.familyIDByteCount,
            thumbprint.map({ $0.count == Self.thumbprintByteCount }) ?? true
        else { return nil }
        self.thumbprint = thumbprint
        self.familyID = familyID
        self.startTime = startTime
        self.generation = generation
    }

    /// A new family starting at `startTime`, generation 0, with a random id; nil when
    /// the random source fails or the thumbprint is not 32 bytes.
    public static func newFamily(thumbprint: [UInt8]?, startTime: UInt64) -> SealedGrant? {
        var familyID = [UInt8](repeating: 0, count: familyIDByteCount)
        let filled = familyID.withUnsafeMutableBytes { SecureRandom.fill($0) }
        guard filled else { return nil }
        return SealedGrant(
            thumbprint: thumbprint, familyID: familyID, startTime: startTime, generation: 0)
    }

    /// The same family's next generation (the answer to a refresh), bound to
    /// `thumbprint`: the same key for a bound token, a new one when an unbound token
    /// adopts DPoP (CONTRACT §13).
    public func nextGeneration(thumbprint: [UInt8]?) -> SealedGrant? {
        SealedGrant(
            thumbprint: thumbprint, familyID: familyID, startTime: startTime,
            generation: generation == .max ? .max : generation + 1)
    }

    /// Neither the family id nor the thumbprint: both identify a grant.
    public var description: String {
        "SealedGrant(bound: \(thumbprint != nil), startTime: \(startTime), "
            + "generation: \(generation))"
    }
}
