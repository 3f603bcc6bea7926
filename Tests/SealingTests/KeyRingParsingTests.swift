import Testing

@testable import Sealing

@Suite struct KeyRingParsingTests {
    @Test func parsesEntriesInOrderFirstIsActive() throws {
        let ring = try KeyRing(parsing: "new:\(Fixtures.keyB), old_1:\(Fixtures.keyA)\n")
        #expect(ring.activeKeyID == "new")
        #expect(ring.keyIDs == ["new", "old_1"])
        ring.keys[1].withBytes { #expect(Array($0) == Fixtures.keyABytes) }
    }

    @Test(arguments: [
        "k:" + Fixtures.keyA + "=",
        "Az09_-Zz9aB-_x1Q:" + Fixtures.keyA,
        "k:" + Fixtures.keyA,
    ])
    func acceptsPaddingAndFullKidAlphabet(_ text: String) throws {
        let ring = try KeyRing(parsing: text)
        ring.activeKey.withBytes { #expect(Array($0) == Fixtures.keyABytes) }
    }

    static let refusals: [(String, KeyRingError)] = [
        ("", .empty),
        ("  \n", .empty),
        ("k1:\(Fixtures.keyA),", .emptyEntry(position: 2)),
        (",k1:\(Fixtures.keyA)", .emptyEntry(position: 1)),
        ("k1:\(Fixtures.keyA),,k2:\(Fixtures.keyB)", .emptyEntry(position: 2)),
        ("k1\(Fixtures.keyA)", .missingSeparator(position: 1)),
        (":\(Fixtures.keyA)", .emptyKeyID(position: 1)),
        ("k1:\(Fixtures.keyA),:\(Fixtures.keyB)", .emptyKeyID(position: 2)),
        ("abcdefghijklmnopq:\(Fixtures.keyA)", .keyIDTooLong(position: 1)),
        ("\(Fixtures.keyA):k1", .keyIDTooLong(position: 1)),
        ("k.1:\(Fixtures.keyA)", .invalidKeyIDCharacter(position: 1)),
        ("k 1:\(Fixtures.keyA)", .invalidKeyIDCharacter(position: 1)),
        ("kü:\(Fixtures.keyA)", .invalidKeyIDCharacter(position: 1)),
        ("k+:\(Fixtures.keyA)", .invalidKeyIDCharacter(position: 1)),
        ("k1:\(Fixtures.keyA),k1:\(Fixtures.keyB)", .duplicateKeyID(position: 2, keyID: "k1")),
        ("k1:", .wrongKeyLength(position: 1, keyID: "k1", byteCount: 0)),
        (
            "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHg",
            .wrongKeyLength(position: 1, keyID: "k1", byteCount: 31)
        ),
        (
            "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g",
            .wrongKeyLength(position: 1, keyID: "k1", byteCount: 33)
        ),
        ("k1:AAECAwQFBgcICQoLDA0ODw", .wrongKeyLength(position: 1, keyID: "k1", byteCount: 16)),
        ("k1:\(Fixtures.keyA)==", .keyNotBase64URL(position: 1, keyID: "k1")),
        ("k1:\(Fixtures.keyA)A=", .keyNotBase64URL(position: 1, keyID: "k1")),
        (
            "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh+",
            .keyNotBase64URL(position: 1, keyID: "k1")
        ),
        (
            "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh/",
            .keyNotBase64URL(position: 1, keyID: "k1")
        ),
        (
            "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRY XGBkaGxwdHh8",
            .keyNotBase64URL(position: 1, keyID: "k1")
        ),
        (
            "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRY=XGBkaGxwdHh8",
            .keyNotBase64URL(position: 1, keyID: "k1")
        ),
        // Non-canonical: '9' leaves nonzero unused bits where '8' does not.
        (
            "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh9",
            .keyNotBase64URL(position: 1, keyID: "k1")
        ),
        ("k1:\(Fixtures.keyA),k2:\(Fixtures.keyB)!", .keyNotBase64URL(position: 2, keyID: "k2")),
        (
            "k1:\(Fixtures.keyA),k2:\(Fixtures.keyB)x",
            .wrongKeyLength(position: 2, keyID: "k2", byteCount: 33)
        ),
    ]

    @Test(arguments: refusals)
    func refusesWithTypedError(_ text: String, _ expected: KeyRingError) {
        #expect(throws: expected) { try KeyRing(parsing: text) }
    }

    /// No refusal message may echo key text: not the whole key, and not any 6-character
    /// run of it (a kid can be at most 16 characters of the same alphabet, so a run of
    /// key text shorter than that could only appear by coincidence with the kid).
    @Test(arguments: refusals)
    func refusalMessagesHoldNoKeyMaterial(_ text: String, _ expected: KeyRingError) {
        let message = expected.description
        let keyTexts = text.split(separator: ",").compactMap { entry -> Substring? in
            guard let colon = entry.firstIndex(of: ":") else { return entry }
            return entry[entry.index(after: colon)...]
        }
        for key in keyTexts where key.count >= 6 {
            let characters = Array(key)
            for start in 0...(characters.count - 6) {
                let run = String(characters[start..<(start + 6)])
                #expect(!message.contains(run), "message echoes key text")
            }
        }
        #expect(!message.isEmpty)
    }

    @Test func generatedEntriesParseAndDiffer() throws {
        let first = try KeyRing.generateEntry()
        let second = try KeyRing.generateEntry()
        #expect(first != second)
        for entry in [first, second] {
            let parts = entry.split(separator: ":")
            #expect(parts.count == 2)
            #expect(parts[0].count == 9 && parts[0].hasPrefix("k"))
            #expect(parts[1].count == 43)
            let ring = try KeyRing(parsing: entry)
            #expect(ring.activeKeyID == String(parts[0]))
        }
    }
}
