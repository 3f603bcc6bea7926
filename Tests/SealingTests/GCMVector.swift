import Testing

/// One NIST CAVP GCMVS case (Keylen = 256, IVlen = 96, Taglen = 128).
struct GCMVector: Sendable, CustomTestStringConvertible {
    let source: String
    let key: String
    let iv: String
    let plaintext: String
    let associatedData: String
    let ciphertext: String
    let tag: String

    var testDescription: String { source }
}
