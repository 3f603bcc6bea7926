/// Where a stream of TLS records stands (RFC 8446 §5.1, RFC 5246 §6.2: a 5-byte header
/// whose last two bytes are the length of the fragment that follows): how many bytes of
/// a record that has not fully arrived have been seen. OpenSSL keeps those bytes in its
/// own read buffer until the record is complete, so a server counts them as input held
/// for the peer (CONTRACT §15) without asking OpenSSL.
///
/// It only follows the framing; it checks nothing (the engine does). Input that is not
/// TLS gives a figure no larger than one header plus the largest fragment length.
package struct TLSRecordFraming: Sendable, Equatable {
    private static let headerBytes = 5
    /// Header bytes of the current record seen so far (0: between records).
    private var headerSeen = 0
    /// The current record's fragment length, once its header is complete.
    private var fragmentLength = 0
    /// Fragment bytes of the current record not yet seen.
    private var fragmentRemaining = 0

    package init() {}

    /// Bytes of the record in progress seen so far: 0 when every byte seen ended a record.
    package var partialRecordBytes: Int {
        headerSeen < Self.headerBytes
            ? headerSeen : headerSeen + fragmentLength - fragmentRemaining
    }

    /// Follows `bytes`, the next bytes of the stream.
    package mutating func advance(over bytes: UnsafeRawBufferPointer) {
        var index = 0
        while index < bytes.count {
            if headerSeen < Self.headerBytes {
                switch headerSeen {
                case 3: fragmentLength = Int(bytes[index]) << 8
                case 4:
                    fragmentLength |= Int(bytes[index])
                    fragmentRemaining = fragmentLength
                default: break
                }
                headerSeen += 1
                index += 1
            } else {
                let taken = min(fragmentRemaining, bytes.count - index)
                fragmentRemaining -= taken
                index += taken
            }
            if headerSeen == Self.headerBytes, fragmentRemaining == 0 {
                headerSeen = 0
                fragmentLength = 0
            }
        }
    }
}
