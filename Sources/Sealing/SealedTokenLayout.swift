/// The byte layout of a sealed token (a refresh token or a device code), versions 1
/// and 2. `seal` writes version 2; `open` opens both.
///
/// The text form is the bytes below in base64url (RFC 4648 §5) without padding; the
/// text is at most 4096 characters (longer input is refused before it is decoded).
///
/// ```
/// offset        size  field
/// 0             1     version, 0x01 or 0x02
/// 1             1     n = kid length, 1...16
/// 2             n     kid, ASCII [A-Za-z0-9_-]: which key of the ring sealed it
/// 2+n           12    nonce, fresh from RAND_bytes for every seal
/// 14+n          m     AES-256-GCM ciphertext of the m-byte plaintext
/// 14+n+m        16    GCM tag
/// ```
///
/// In version 1 the plaintext is the provider's value itself. In version 2 it is the
/// inner layout (CONTRACT §13, §14), all integers big-endian:
///
/// ```
/// offset  size  field
/// 0       1     flags: 0x01 = bound to a DPoP key; every other bit zero
/// 1       16    grant family id, random (`SealedGrant.familyID`)
/// 17      8     grant start time, Unix seconds (UInt64)
/// 25      8     generation in the family (UInt64)
/// 33      32    RFC 7638 SHA-256 thumbprint of the DPoP key, only when flag 0x01 is set
/// 33|65   v     the provider's value (a refresh token, a device-code envelope)
/// ```
///
/// An inner layout shorter than its flags say, or with an unknown flag, does not open
/// (it could only come from a bug or a stolen key, since the tag verified).
///
/// The associated data authenticates the header (so the version, too: a version-2 token
/// relabelled as version 1 fails the tag) and binds the token to its context, each
/// variable field prefixed by its length so no two contexts encode alike (provider "ab"
/// + client "c" differs from provider "a" + client "bc"):
///
/// ```
/// version (1) | n (1) | kid (n)
///   | UInt64 big-endian byte count of provider (UTF-8) | provider
///   | UInt64 big-endian byte count of client id (UTF-8) | client id
///   [ | 0xFF | kind (1) ]      only for kinds other than refresh token (`SealedKind`)
/// ```
///
/// The kind suffix is absent for refresh tokens, so tokens sealed before kinds existed
/// open unchanged; for any other kind the associated data is two bytes longer than a
/// refresh token's with the same provider and client, and the length prefixes make the
/// encoding unambiguous, so no refresh-token context equals a device-code context.
///
/// The nonce needs no place in the associated data: GCM derives the counter block that
/// masks the tag from it, so a changed nonce fails the tag check by itself.
/// With random 96-bit nonces one key may seal about 2^32 tokens before the chance of a
/// repeated nonce reaches 2^-32 (NIST SP 800-38D §8.3); rotate keys well before that.
enum SealedTokenLayout {
    /// The version `seal` writes.
    static let version: UInt8 = 2
    /// The provider's value alone as plaintext.
    static let versionWithoutGrant: UInt8 = 1
    static let maxTextLength = 4096
    /// A kept answer (CONTRACT §12) holds a whole token response, whose access and id
    /// tokens may be JWTs of a few KiB each; it is sealed and opened by the service
    /// itself, never read from a request, so its larger bound costs no exposure.
    static let maxKeptAnswerTextLength = 65_536

    /// The longest text of a sealed value of `kind`.
    static func maxTextLength(_ kind: SealedKind) -> Int {
        kind == .keptAnswer ? maxKeptAnswerTextLength : maxTextLength
    }

    /// The most bytes a sealed value of `kind` has: those whose base64url text (4
    /// characters per 3 bytes, no padding) fits `maxTextLength(kind)`, a multiple of 4.
    static func maxByteLength(_ kind: SealedKind) -> Int {
        maxTextLength(kind) / 4 * 3
    }
    static let nonceByteCount = AES256GCM.nonceByteCount
    static let tagByteCount = AES256GCM.tagByteCount

    /// Version 2's inner layout (see above).
    enum Inner {
        static let boundFlag: UInt8 = 0x01
        static let familyOffset = 1
        static let startTimeOffset = familyOffset + SealedGrant.familyIDByteCount
        static let generationOffset = startTimeOffset + 8
        static let unboundByteCount = generationOffset + 8
        static let boundByteCount = unboundByteCount + SealedGrant.thumbprintByteCount

        static func byteCount(_ grant: SealedGrant) -> Int {
            grant.thumbprint == nil ? unboundByteCount : boundByteCount
        }

        /// Writes the fields of `grant` into `buffer`, which holds exactly
        /// `byteCount(grant)` bytes.
        static func write(_ grant: SealedGrant, into buffer: UnsafeMutableRawBufferPointer) {
            buffer[0] = grant.thumbprint == nil ? 0 : boundFlag
            for (index, byte) in grant.familyID.enumerated() { buffer[familyOffset + index] = byte }
            writeUInt64(grant.startTime, into: buffer, at: startTimeOffset)
            writeUInt64(grant.generation, into: buffer, at: generationOffset)
            if let thumbprint = grant.thumbprint {
                for (index, byte) in thumbprint.enumerated() {
                    buffer[unboundByteCount + index] = byte
                }
            }
        }

        /// The grant and the offset of the provider's value in `plaintext`, or nil when
        /// the layout is short or has an unknown flag.
        static func read(_ plaintext: UnsafeRawBufferPointer) -> (SealedGrant, valueOffset: Int)? {
            guard plaintext.count >= unboundByteCount, plaintext[0] & ~boundFlag == 0 else {
                return nil
            }
            let bound = plaintext[0] == boundFlag
            let count = bound ? boundByteCount : unboundByteCount
            guard plaintext.count >= count,
                let grant = SealedGrant(
                    thumbprint: bound ? Array(plaintext[unboundByteCount..<boundByteCount]) : nil,
                    familyID: Array(plaintext[familyOffset..<startTimeOffset]),
                    startTime: readUInt64(plaintext, at: startTimeOffset),
                    generation: readUInt64(plaintext, at: generationOffset))
            else { return nil }
            return (grant, count)
        }

        private static func writeUInt64(
            _ value: UInt64, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
        ) {
            for index in 0..<8 {
                buffer[offset + index] = UInt8(truncatingIfNeeded: value >> UInt64(56 - 8 * index))
            }
        }

        private static func readUInt64(_ buffer: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
            (0..<8).reduce(0) { $0 << 8 | UInt64(buffer[offset + $1]) }
        }
    }

    static func headerByteCount(keyIDLength: Int) -> Int { 2 + keyIDLength }

    /// The smallest sealed form: a one-character kid and an empty plaintext.
    static let minimumByteCount = headerByteCount(keyIDLength: 1) + nonceByteCount + tagByteCount

    static func associatedDataByteCount(headerByteCount: Int, context: SealingContext)
        -> Int
    {
        headerByteCount + context.boundBytes.count
    }

    /// The associated data after the header, what a context binds: provider and client
    /// id, each with its length as 64 bits big-endian, then `0xFF` and the kind unless it
    /// is a refresh token (`SealingContext` makes it once).
    static func boundBytes(provider: String, clientID: String, kind: SealedKind) -> [UInt8] {
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
        return bytes
    }

    /// Writes the associated data, the header and then what the context binds
    /// (`SealingContext.boundBytes`), into `buffer`, which holds exactly
    /// `associatedDataByteCount(…)` bytes.
    static func writeAssociatedData(
        header: UnsafeRawBufferPointer, context: SealingContext,
        into buffer: UnsafeMutableRawBufferPointer
    ) {
        buffer.copyMemory(from: header)
        context.boundBytes.withUnsafeBytes { bound in
            UnsafeMutableRawBufferPointer(rebasing: buffer[header.count...]).copyMemory(
                from: bound)
        }
    }
}
