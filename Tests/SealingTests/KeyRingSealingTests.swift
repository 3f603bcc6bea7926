import TestSupport
import Testing

@testable import Sealing

@Suite(.resourceClass(.compute)) struct KeyRingSealingTests {
    let ring: KeyRing
    let sealed: String

    init() throws {
        ring = try Fixtures.ring("k1:\(Fixtures.keyA)")
        sealed = try ring.seal(Fixtures.refreshToken, context: Fixtures.context)
    }

    @Test func roundTrips() throws {
        let opened = try ring.open(sealed, context: Fixtures.context)
        #expect(opened.plaintext == Fixtures.refreshToken)
        #expect(opened.keyID == "k1")
        #expect(opened.sealedWithActiveKey)
        let text = try ring.seal("AQB-token", context: Fixtures.context)
        #expect(try ring.open(text, context: Fixtures.context).plaintextString == "AQB-token")
        let empty = try ring.seal([UInt8](), context: Fixtures.context)
        #expect(try ring.open(empty, context: Fixtures.context).plaintext == [])
    }

    /// A context changed field by field binds what it says now: equal to one made with
    /// those values, and a token sealed under it opens under that one and not the first.
    @Test func aChangedContextBindsItsNewValues() throws {
        var changed = Fixtures.context
        changed.kind = .keptAnswer
        #expect(
            changed
                == SealingContext(provider: "spotify", clientID: "client-123", kind: .keptAnswer))
        #expect(changed != Fixtures.context)
        let keptAnswer = try ring.seal("kept", context: changed)
        #expect(
            try ring.open(
                keptAnswer,
                context: SealingContext(
                    provider: "spotify", clientID: "client-123", kind: .keptAnswer)
            ).plaintextString
                == "kept")
        #expect(throws: SealingError.invalidToken) {
            try ring.open(keptAnswer, context: Fixtures.context)
        }
        changed.kind = .refreshToken
        changed.clientID = "client-456"
        #expect(
            changed.hashValue
                == SealingContext(provider: "spotify", clientID: "client-456").hashValue)
        #expect(throws: SealingError.invalidToken) { try ring.open(sealed, context: changed) }
        changed.clientID = "client-123"
        #expect(changed == Fixtures.context)
        #expect(try ring.open(sealed, context: changed).plaintext == Fixtures.refreshToken)
    }

    /// The documented layout (version 2), checked by decrypting with the raw key and an
    /// associated data built here by hand rather than by `SealedTokenLayout`: the inner
    /// layout of a new unbound family, then the provider's value.
    @Test func followsTheDocumentedLayout() throws {
        let bytes = try #require(Base64URL.decode(Substring(sealed)))
        #expect(bytes.count == 1 + 1 + 2 + 12 + 33 + Fixtures.refreshToken.count + 16)
        #expect(bytes[0] == 0x02)
        #expect(bytes[1] == 2)
        #expect(Array(bytes[2..<4]) == Array("k1".utf8))
        let associatedData: [UInt8] =
            [0x02, 2] + Array("k1".utf8) + [0, 0, 0, 0, 0, 0, 0, 7] + Array("spotify".utf8)
            + [0, 0, 0, 0, 0, 0, 0, 10] + Array("client-123".utf8)
        let vector = GCMCase(
            key: Fixtures.keyABytes, iv: Array(bytes[4..<16]), plaintext: [],
            associatedData: associatedData, ciphertext: Array(bytes[16..<(bytes.count - 16)]),
            tag: Array(bytes[(bytes.count - 16)...]))
        let inner = try vector.open()
        #expect(inner[0] == 0x00)
        #expect(Array(inner[25..<33]) == [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(inner[33...]) == Fixtures.refreshToken)
        let grant = try #require(try ring.open(sealed, context: Fixtures.context).grant)
        #expect(grant.familyID == Array(inner[1..<17]) && grant.thumbprint == nil)
    }

    @Test func olderKeyOpensAndReportsItIsNotActive() throws {
        let rotated = try Fixtures.ring("k2:\(Fixtures.keyB),k1:\(Fixtures.keyA)")
        let opened = try rotated.open(sealed, context: Fixtures.context)
        #expect(opened.plaintext == Fixtures.refreshToken)
        #expect(opened.keyID == "k1")
        #expect(!opened.sealedWithActiveKey)
        let resealed = try rotated.seal(opened.plaintext, context: Fixtures.context)
        let reopened = try rotated.open(resealed, context: Fixtures.context)
        #expect(reopened.keyID == "k2" && reopened.sealedWithActiveKey)
        #expect(throws: SealingError.invalidToken) {
            try ring.open(resealed, context: Fixtures.context)
        }
    }

    @Test func everyBitOfTheDecodedFormMatters() throws {
        let bytes = try #require(Base64URL.decode(Substring(sealed)))
        for index in bytes.indices {
            for bit in 0..<8 {
                var tampered = bytes
                tampered[index] ^= 1 << UInt8(bit)
                #expect(throws: SealingError.invalidToken) {
                    try ring.open(Base64URL.encode(tampered), context: Fixtures.context)
                }
            }
        }
    }

    @Test func everyCharacterOfTheTextFormMatters() {
        let characters = Array(sealed.utf8)
        let replacements = Base64URL.alphabet + Array("+/= .~%\n".utf8)
        var attempts = 0
        var opened = 0
        for index in characters.indices {
            for replacement in replacements where replacement != characters[index] {
                var tampered = characters
                tampered[index] = replacement
                attempts += 1
                // Counted, not expected one by one: thousands of #expect calls would keep
                // a cooperative thread busy for seconds.
                do {
                    _ = try ring.open(
                        String(decoding: tampered, as: UTF8.self), context: Fixtures.context)
                    opened += 1
                } catch .invalidToken {
                } catch {
                    opened += 1
                }
            }
        }
        #expect(attempts == characters.count * (replacements.count - 1))
        #expect(opened == 0)
    }

    @Test func truncationAndExtensionFail() throws {
        for length in 0..<sealed.utf8.count {
            #expect(throws: SealingError.invalidToken) {
                try ring.open(String(sealed.prefix(length)), context: Fixtures.context)
            }
        }
        for character in Base64URL.alphabet.map({ String(UnicodeScalar($0)) }) + ["=", "==", "\n"] {
            #expect(throws: SealingError.invalidToken) {
                try ring.open(sealed + character, context: Fixtures.context)
            }
        }
        let bytes = try #require(Base64URL.decode(Substring(sealed)))
        for extra in [[0x00], [0x00, 0x00, 0x00], Array(bytes.suffix(16))] as [[UInt8]] {
            #expect(throws: SealingError.invalidToken) {
                try ring.open(Base64URL.encode(bytes + extra), context: Fixtures.context)
            }
        }
        for length in 0..<bytes.count {
            #expect(throws: SealingError.invalidToken) {
                try ring.open(
                    Base64URL.encode(Array(bytes.prefix(length))), context: Fixtures.context)
            }
        }
    }

    @Test(arguments: [
        SealingContext(provider: "linkedin", clientID: "client-123"),
        SealingContext(provider: "spotify", clientID: "client-124"),
        SealingContext(provider: "Spotify", clientID: "client-123"),
        SealingContext(provider: "spotifyc", clientID: "lient-123"),
        SealingContext(provider: "spotify", clientID: ""),
        SealingContext(provider: "", clientID: "spotifyclient-123"),
    ])
    func otherContextsFail(_ context: SealingContext) {
        #expect(throws: SealingError.invalidToken) { try ring.open(sealed, context: context) }
    }

    /// CONTRACT §7: a sealed refresh token never opens as a device code and a sealed
    /// device code never opens as a refresh token, for the same provider and client.
    @Test func kindsDoNotOpenAsEachOther() throws {
        let deviceContext = SealingContext(
            provider: Fixtures.context.provider, clientID: Fixtures.context.clientID,
            kind: .deviceCode)
        #expect(throws: SealingError.invalidToken) {
            try ring.open(sealed, context: deviceContext)
        }
        let deviceCode = try ring.seal(Fixtures.refreshToken, context: deviceContext)
        #expect(
            try ring.open(deviceCode, context: deviceContext).plaintext == Fixtures.refreshToken)
        #expect(throws: SealingError.invalidToken) {
            try ring.open(deviceCode, context: Fixtures.context)
        }
    }

    /// The device-code kind is the refresh-token associated data plus `0xFF, 1`, checked
    /// against a hand-built associated data.
    @Test func deviceCodeFollowsTheDocumentedLayout() throws {
        let context = SealingContext(
            provider: "spotify", clientID: "client-123", kind: .deviceCode)
        let bytes = try #require(
            Base64URL.decode(Substring(try ring.seal(Fixtures.refreshToken, context: context))))
        let associatedData: [UInt8] =
            [0x02, 2] + Array("k1".utf8) + [0, 0, 0, 0, 0, 0, 0, 7] + Array("spotify".utf8)
            + [0, 0, 0, 0, 0, 0, 0, 10] + Array("client-123".utf8) + [0xFF, 0x01]
        let vector = GCMCase(
            key: Fixtures.keyABytes, iv: Array(bytes[4..<16]), plaintext: [],
            associatedData: associatedData, ciphertext: Array(bytes[16..<(bytes.count - 16)]),
            tag: Array(bytes[(bytes.count - 16)...]))
        #expect(Array(try vector.open().dropFirst(33)) == Fixtures.refreshToken)
    }

    @Test func wrongKeyWithTheSameKidFails() throws {
        let impostor = try Fixtures.ring("k1:\(Fixtures.keyB)")
        #expect(throws: SealingError.invalidToken) {
            try impostor.open(sealed, context: Fixtures.context)
        }
    }

    @Test func unknownKidFails() throws {
        let other = try Fixtures.ring("k2:\(Fixtures.keyA)")
        #expect(throws: SealingError.invalidToken) {
            try other.open(sealed, context: Fixtures.context)
        }
    }

    /// A well-formed token of another version must be refused before decryption, even
    /// though the tag would be recomputed correctly for its bytes.
    @Test(arguments: [0x00, 0x03, 0x7F, 0xFF] as [UInt8])
    func unknownVersionFails(_ version: UInt8) throws {
        var bytes = try #require(Base64URL.decode(Substring(sealed)))
        bytes[0] = version
        let nonce = Array(bytes[4..<16])
        let associatedData: [UInt8] =
            [version, 2] + Array("k1".utf8) + [0, 0, 0, 0, 0, 0, 0, 7] + Array("spotify".utf8)
            + [0, 0, 0, 0, 0, 0, 0, 10] + Array("client-123".utf8)
        let resealed = try GCMCase(
            key: Fixtures.keyABytes, iv: nonce, plaintext: Fixtures.refreshToken,
            associatedData: associatedData, ciphertext: [], tag: []
        ).seal()
        let forged = Array(bytes[0..<16]) + resealed.ciphertext + resealed.tag
        #expect(throws: SealingError.invalidToken) {
            try ring.open(Base64URL.encode(forged), context: Fixtures.context)
        }
    }

    @Test func outputIsUnpaddedBase64URL() throws {
        var generator = SplitMix64(seed: 7)
        var outsideAlphabet = 0
        var notRoundTripped = 0
        for _ in 0..<2000 {
            let length = Int.random(in: 0...300, using: &generator)
            let plaintext = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = try ring.seal(plaintext, context: Fixtures.context)
            if !text.utf8.allSatisfy({ Base64URL.alphabet.contains($0) }) { outsideAlphabet += 1 }
            if try ring.open(text, context: Fixtures.context).plaintext != plaintext {
                notRoundTripped += 1
            }
        }
        #expect(outsideAlphabet == 0)
        #expect(notRoundTripped == 0)
    }

    @Test func lengthLimitHoldsBothWays() throws {
        // 4096 characters decode to 3072 bytes: 2 + 2 (kid) + 12 + 16 and the unbound
        // inner layout's 33 leave 3007.
        let largest = [UInt8](repeating: 0x41, count: 3007)
        let text = try ring.seal(largest, context: Fixtures.context)
        #expect(text.utf8.count == 4096)
        #expect(try ring.open(text, context: Fixtures.context).plaintext == largest)
        #expect(throws: SealingError.plaintextTooLong) {
            try ring.seal(largest + [0x41], context: Fixtures.context)
        }
        #expect(throws: SealingError.invalidToken) {
            try ring.open(String(repeating: "A", count: 4097), context: Fixtures.context)
        }
        #expect(throws: SealingError.invalidToken) {
            try ring.open(String(repeating: "A", count: 1_000_000), context: Fixtures.context)
        }
    }

    @Test func substringsOpenLikeStrings() throws {
        let form = "refresh_token=\(sealed)&x=1"
        let start = try #require(form.firstIndex(of: "="))
        let end = try #require(form.firstIndex(of: "&"))
        let opened = try ring.open(form[form.index(after: start)..<end], context: Fixtures.context)
        #expect(opened.plaintext == Fixtures.refreshToken)
    }

    /// Pooled contexts are reused across seal and open and after failed opens; none may
    /// carry state (direction, associated data, tag) from one operation into the next.
    @Test func reusedContextsCarryNothingOver() throws {
        let tampered = String(sealed.dropLast()) + (sealed.hasSuffix("A") ? "B" : "A")
        let other = SealingContext(provider: "linkedin", clientID: "client-123")
        var generator = SplitMix64(seed: 9)
        for round in 0..<300 {
            let plaintext = (0..<Int.random(in: 0...200, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            let context = round.isMultiple(of: 2) ? Fixtures.context : other
            #expect(throws: SealingError.invalidToken) {
                try ring.open(tampered, context: Fixtures.context)
            }
            let text = try ring.seal(plaintext, context: context)
            #expect(throws: SealingError.invalidToken) {
                try ring.open(text, context: context == other ? Fixtures.context : other)
            }
            #expect(try ring.open(text, context: context).plaintext == plaintext)
            #expect(
                try ring.open(sealed, context: Fixtures.context).plaintext == Fixtures.refreshToken)
        }
    }

    @Test func sharedAcrossTasks() async throws {
        let ring = self.ring
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let plaintext = [UInt8]("token-\(task)".utf8)
                    for _ in 0..<500 {
                        let text = try ring.seal(plaintext, context: Fixtures.context)
                        guard try ring.open(text, context: Fixtures.context).plaintext == plaintext
                        else { return false }
                    }
                    return true
                }
            }
            for try await succeeded in group { #expect(succeeded) }
        }
    }
}
