import Testing

/// A P-256 public key of a Wycheproof ECDSA file and its tests (`WycheproofP256`).
struct WycheproofP256Key: Sendable, CustomTestStringConvertible {
    /// One `EcdsaP1363Verify` test: the message and the signature r‖s as hex, and whether
    /// it is a valid signature of the message by the key.
    struct Test: Sendable {
        let id: Int
        let comment: String
        let message: String
        let signature: String
        let valid: Bool

        init(_ id: Int, _ comment: String, message: String, signature: String, valid: Bool) {
            self.id = id
            self.comment = comment
            self.message = message
            self.signature = signature
            self.valid = valid
        }
    }

    let x: String
    let y: String
    let tests: [Test]

    var testDescription: String { "tcId \(tests.first?.id ?? 0)…\(tests.last?.id ?? 0)" }
}
