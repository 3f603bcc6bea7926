import Foundation
import Testing

@testable import TokenSwap

/// The legacy decoders (CONTRACT §9) against tokens made by the real algorithms. The
/// vectors below were made once with
///   python3 Tests/EndToEndTests/Fixtures/legacy_token.py FORMAT s3cret "$plaintext"
/// (`openssl enc` for the Node and CryptoJS formats, Python `cryptography` for 3DES and
/// GCM); EndToEndTests/LegacyMigrationTests makes fresh ones on every run.
@Suite struct LegacyFormatTests {
    static let secret = "s3cret"
    static let plaintext =
        "AQDrefreshTOKENexample_0123456789-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    static let vectors: [LegacyFormat: String] = [
        .rubyEncryptedStrings: """
        fcZDs1m1Wnb4InqlnkK++ZU+wl03ZjuWC+bIwxpVu9eSXvvW7oUrGC/DY4O9
        aOgy8Pb8eRj3GIihNxKiGVs4YpD3qLHK+dL/oRkP0aHeC6hwaxHLIdSDCA==

        """,
        .nodeCreateCipherCTR:
            "f7d31c2454150e6a510477cee21acddba790603766bf011c6b41b679efc7d633fa88c15a79f03d286cd1b4650f70bd9c9202b90a405dee8ecef5dabbc285f62d2ff9610a3f4991459809edb7961626ab55d07cd32c18",
        .nodeCreateCipherCBC:
            "f3fd0ec8a196c86f71c3255635e0bc4a79dafbf2e1c8718822f8afcc5cac770125018c45a2bc1218f17ca234090a76d9433f4e981fe941aabea2df10465938222eaef32f0ac93ca0a8d8772086812dc0575fdfe2d041ab9274e6b721881b911b",
        .spotifyAPIServerGCM:
            "SKAyBJxYWzIkH5SvcGRiHCZb8fgziMRj9AcqFOi3Kdq7cx0RL2SnsWSU7ubASHg0eRnyzylz4ObWA5hE87-HbuJhedHs3HRcC6Rul6puLwfm1epCmYahl4mVrioOiYm-WkKeu560Z9Kr0ufIOiGqsIg3",
        .cryptoJSAES:
            "U2FsdGVkX19/IZFI4s9wsGfh2jCMZUxlGTe38aIZh17+5o/nsEzaZkD62kXSex7fiLH+hHzCj+VYoHWMiLfeG7iGfNNzQPpulanVCO4h7Fc/6385QiayWsoZH+I7lT2rlHDTa78BZub/+M2f7V6Tkg==",
    ]
    static let spotify = RefreshTokenShape(.spotify)

    static func decoder(_ format: LegacyFormat, _ secret: String = secret) -> LegacyDecoder {
        LegacyDecoder(format: format, secret: Secret(secret))
    }

    static func text(_ bytes: [UInt8]?) -> String? {
        bytes.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The encrypted_strings gem's published example: `"test".encrypt(:symmetric,
    /// :password => "secret")` is `"oTxJd67ElLY=\n"`.
    @Test func encryptedStringsGemVector() {
        let opened = LegacyFormat.rubyEncryptedStrings.decrypt(
            LegacyTokenText.repaired("oTxJd67ElLY=\n"),
            keyMaterial: LegacyFormat.rubyEncryptedStrings.keyMaterial(
                secret: Array("secret".utf8)))
        #expect(Self.text(opened) == "test")
    }

    @Test(arguments: LegacyFormat.allCases)
    func vectorOpensAsMadeAndAfterTransportDamage(_ format: LegacyFormat) throws {
        let token = try #require(Self.vectors[format])
        let damaged = [
            token,
            token.filter { $0 != "\n" },  // newlines lost
            token.split(separator: "\n").joined(separator: "\\n") + "\\n",  // sent as \n
            token.map { $0 == "+" ? " " : $0 }.reduce(into: "") { $0.append($1) },  // + as space
        ]
        for variant in damaged {
            #expect(
                Self.text(Self.decoder(format).open(variant, shape: Self.spotify)) == Self.plaintext
            )
        }
    }

    @Test(arguments: LegacyFormat.allCases)
    func wrongSecretWrongFormatAndTruncationDoNotOpen(_ format: LegacyFormat) throws {
        let token = try #require(Self.vectors[format])
        #expect(Self.decoder(format, "s3cres").open(token, shape: Self.spotify) == nil)
        // One character of data cut off (padding alone is optional, so it is not damage).
        let truncated = String(token.trimmingCharacters(in: .newlines.union(["="])).dropLast())
        #expect(Self.decoder(format).open(truncated, shape: Self.spotify) == nil)
        for other in LegacyFormat.allCases where other != format {
            #expect(Self.decoder(other).open(token, shape: Self.spotify) == nil, "\(other)")
        }
    }

    /// An unauthenticated format's garbage must not reach the provider: a plaintext
    /// outside the provider's refresh-token shape is refused even when it decrypts.
    @Test func shapeIsCheckedBeforeTheProviderIsCalled() {
        #expect(Self.spotify.matches(Array(Self.plaintext.utf8)))
        #expect(!Self.spotify.matches(Array("test".utf8)))  // too short
        #expect(!Self.spotify.matches(Array("AQD refresh token with spaces".utf8)))
        #expect(!Self.spotify.matches([0x41, 0x51] + [UInt8](repeating: 0xC3, count: 30)))
        let generic = RefreshTokenShape(.generic)
        #expect(generic.matches(Array("opaque token with spaces".utf8)))
        #expect(!generic.matches(Array("line\nbreak-inside".utf8)))
    }

    @Test func repairsOnlyTheKnownDamage() {
        #expect(LegacyTokenText.repaired("ab\\ncd\ne f\r\n") == "abcde+f")
        #expect(LegacyTokenText.base64("oTxJd67ElLY") == LegacyTokenText.base64("oTxJd67ElLY="))
        #expect(LegacyTokenText.base64("abcde") == nil)
        #expect(LegacyTokenText.hex("0aFf") == [0x0A, 0xFF])
        #expect(LegacyTokenText.hex("0aF") == nil)
        #expect(LegacyTokenText.hex("0g") == nil)
    }

    @Test func recognisesTheSecretSpotifysExamplePublished() {
        #expect(
            Self.decoder(
                .rubyEncryptedStrings, "cFJLyifeUJUBFWdHzVbykfDmPHtLKLGzViHW9aHGmyTLD8hGXC"
            ).usesPublishedSecret)
        #expect(
            !Self.decoder(
                .rubyEncryptedStrings, "cFJLyifeUJUBFWdHzVbykfDmPHtLKLGzViHW9aHGmyTLD8hGXc"
            ).usesPublishedSecret)
    }

    @Test func decoderNeverPrintsItsSecret() {
        let decoder = Self.decoder(.cryptoJSAES)
        #expect(!"\(decoder)".contains(Self.secret))
        #expect(!String(reflecting: decoder).contains(Self.secret))
        var dumped = ""
        dump(decoder, to: &dumped)
        #expect(!dumped.contains(Self.secret) && dumped.contains("redacted"))
    }
}
