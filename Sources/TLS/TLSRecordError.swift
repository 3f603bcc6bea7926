/// A TLS record could not be encrypted or decrypted after the handshake (a bad MAC, an
/// unexpected message, an alert from the peer). The reason comes from OpenSSL's error
/// queue: it names the check that failed, never record contents.
package struct TLSRecordError: Error, Sendable, CustomStringConvertible {
    package let reason: String

    package init(reason: String) {
        self.reason = reason
    }

    package var description: String { reason }
}
