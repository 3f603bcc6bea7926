import Sealing

/// Client credentials from `Authorization: Basic …` (RFC 6749 §2.3.1): base64 of the
/// form-encoded id, `:`, and the form-encoded secret. Holds a secret: never printed.
package struct BasicCredentials: Sendable, CustomStringConvertible {
    package let clientID: String
    package let secret: String

    /// nil when the header is not Basic or does not decode. Unused base64 bits are
    /// ignored, as clients' encoders differ there.
    package init?(authorization: String) {
        guard authorization.lowercased().hasPrefix("basic "),
            let decoded = Base64.decode(
                String(authorization.dropFirst(6)).trimmingWhitespace(), ignoringUnusedBits: true),
            let colon = decoded.firstIndex(of: UInt8(ascii: ":")),
            let id = try? FormURLEncoding.decode(Array("v=".utf8) + decoded[..<colon]).first?
                .value,
            let secret = try? FormURLEncoding.decode(Array("v=".utf8) + decoded[(colon + 1)...])
                .first?.value
        else { return nil }
        clientID = id
        self.secret = secret
    }

    package var description: String { "BasicCredentials(\(clientID))" }
}
