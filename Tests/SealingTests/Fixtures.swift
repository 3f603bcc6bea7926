@testable import Sealing

/// Fixed keys for tests; never used outside them. The bytes are given so the tests can
/// check the text form independently of our own encoder.
enum Fixtures {
    /// base64url of bytes 0, 1, …, 31.
    static let keyA = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
    static let keyABytes = [UInt8](0..<32)
    /// base64url of bytes 32, 33, …, 63.
    static let keyB = "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8"

    static let context = SealingContext(provider: "spotify", clientID: "client-123")

    /// A 130-byte refresh token, the size Spotify issues.
    static let refreshToken = [UInt8](
        ("AQD" + String(repeating: "x9_-Zq", count: 21) + "A").utf8)

    static func ring(_ text: String) throws -> KeyRing {
        try KeyRing(parsing: text)
    }
}
