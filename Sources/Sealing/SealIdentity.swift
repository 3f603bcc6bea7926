/// What names one sealed token among all others, taken from the parts of it that the tag
/// authenticated when it opened: the version, the key id, the nonce and the GCM tag
/// (`SealedTokenLayout`).
///
/// A token that opened was sealed by a key of this ring: nobody without the key can make
/// another token with the same key id, nonce and tag that opens (GCM's tag is unforgeable),
/// and two seals under one key draw different nonces, so the tag identifies the token as
/// well as its whole text does (and the text is canonical base64url, one spelling per
/// token). The replay window keys a refresh on it (CONTRACT §12), so it digests a few dozen
/// bytes instead of the whole text.
///
/// Held inline (no allocation per open). Not secret, since the client holds the token, but
/// part of one, so no textual form shows the nonce or the tag.
public struct SealIdentity: Sendable, Hashable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    public let version: UInt8
    public let keyID: String
    private let nonceHead: UInt64
    private let nonceTail: UInt32
    private let tagHead: UInt64
    private let tagTail: UInt64

    /// From an opened token's nonce (12 bytes) and tag (16 bytes).
    init(
        version: UInt8, keyID: String, nonce: UnsafeRawBufferPointer,
        tag: UnsafeRawBufferPointer
    ) {
        precondition(
            nonce.count == SealedTokenLayout.nonceByteCount
                && tag.count == SealedTokenLayout.tagByteCount)
        self.version = version
        self.keyID = keyID
        nonceHead = nonce.loadUnaligned(as: UInt64.self)
        nonceTail = nonce.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
        tagHead = tag.loadUnaligned(as: UInt64.self)
        tagTail = tag.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    }

    /// The bytes `write` writes: version (1) | key id length (1) | key id | nonce (12) | tag (16).
    package var byteCount: Int {
        2 + keyID.utf8.count + SealedTokenLayout.nonceByteCount + SealedTokenLayout.tagByteCount
    }

    /// Writes the identity into the first `byteCount` bytes of `buffer` (at least that long).
    package func write(into buffer: UnsafeMutableRawBufferPointer) {
        precondition(buffer.count >= byteCount)
        let offset = keyID.withUTF8Bytes { utf8 in
            buffer[0] = version
            buffer[1] = UInt8(truncatingIfNeeded: utf8.count)
            UnsafeMutableRawBufferPointer(rebasing: buffer[2...])
                .copyMemory(from: UnsafeRawBufferPointer(utf8))
            return 2 + utf8.count
        }
        buffer.storeBytes(of: nonceHead, toByteOffset: offset, as: UInt64.self)
        buffer.storeBytes(of: nonceTail, toByteOffset: offset + 8, as: UInt32.self)
        buffer.storeBytes(of: tagHead, toByteOffset: offset + 12, as: UInt64.self)
        buffer.storeBytes(of: tagTail, toByteOffset: offset + 20, as: UInt64.self)
    }

    /// The identity's bytes, as `write` lays them out (for tests).
    package var bytes: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            write(into: UnsafeMutableRawBufferPointer(buffer))
            initialized = byteCount
        }
    }

    public var description: String { "SealIdentity(version: \(version), keyID: \(keyID))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["version": version, "keyID": keyID])
    }
}
