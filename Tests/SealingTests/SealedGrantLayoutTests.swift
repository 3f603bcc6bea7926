import Testing

@testable import Sealing

/// The sealed form's version 2 (`SealedTokenLayout`'s inner layout: binding, family,
/// start time, generation; CONTRACT §13, §14), against vectors computed outside Swift
/// with Python's `cryptography` (AESGCM) from the documented layout, and version 1
/// still opening.
@Suite struct SealedGrantLayoutTests {
    /// The RFC 7638 thumbprint of `P256PublicKeyTests.x`/`.y` (hex).
    static let thumbprint = Hex.decode(
        "e94a16c030a42e357427ea501bc7344c7c5b56105ca51d0064389fb75625e433")!
    static let familyID = [UInt8](0x10..<0x20)
    static let startTime: UInt64 = 1_767_225_600
    static let nonce = [UInt8](0xA0..<0xAC)

    /// Key 0…31 as `k1`, nonce A0…AB, context spotify/client-123, the 130-byte token.
    static let boundVector =
        "AgJrMaChoqOkpaanqKmqq-cIbT9W3xepdX2eyRxm3cBvrFkQkt4X1ZwOJoZ_q3UB0Z8N6W8S9xNq6CMiWWFEzQtnHR5yjL9jQTozwRMmoFSH_dQrSJy7za6ThyHQ45bLtTL0iZ-w4UOxWGTryaMSudX1U5Jcg9Xq5uJZfd_5lRF7fTvfpgzEEXW-pp3reKg8vSjvUokz-C5odKT6anPO-9Ko1VLh_aD9hfTi2PW2TBKZNUXAzlMfO9h7Uxsw_-yQDx-itVgX1gfdryxIJLtAem5HDVoulARDFSJhpsfNHWq3NJk"
    static let unboundVector =
        "AgJrMaChoqOkpaanqKmqq-YIbT9W3xepdX2eyRxm3cBvrFkQkt4X1ZwOJoZ_q3UB0jcWu9cbDBAF7XzxVlfZiD8iGWU4oWJHHnNRL9xJ2p3uzf1Wb4i-kYzboDXVv7SDkibx1b34xle0BEaj7rcX5fe9dIZZ3_eiwfZcIf2xsgV-IRmXgRjBTVf2gYnuJIp0mjzqDqt73zptKIayTWfLp_Dg8kbkoYK1ouDnhNf-awacaV7v1Kb6I-QGuaCuiGhEW6LQ"
    /// The same token, key and nonce in version 1 (the provider's value as plaintext).
    static let versionOneVector =
        "AQJrMaChoqOkpaanqKmqq6dJOFV8lC_lEx2-jCogsaZJ83RK4897M7FUV_5G9Fhbow5-oIJ4IkVmwymSeAK6pmpBNzBbjzckMCYyAYkq9MiN46g1Qd3dv9m4jmC2keHgvHOS--ib6ALXKhPAwOJ0y6LeWtM68aLB76M_D6jSnFAdD0z0r02iYwKVr9yNCt8XtFCyN1_w_XW15cHLCQbvrC5m"

    let ring: KeyRing
    let bound: SealedGrant
    let unbound: SealedGrant

    init() throws {
        ring = try Fixtures.ring("k1:\(Fixtures.keyA)")
        bound = try #require(
            SealedGrant(
                thumbprint: Self.thumbprint, familyID: Self.familyID, startTime: Self.startTime,
                generation: 3))
        unbound = try #require(
            SealedGrant(
                thumbprint: nil, familyID: Self.familyID, startTime: Self.startTime,
                generation: 0))
    }

    private func seal(_ grant: SealedGrant, context: SealingContext = Fixtures.context) throws
        -> String
    {
        try Fixtures.refreshToken.withUnsafeBytes { value in
            try ring.seal(value: value, grant: grant, context: context, nonce: Self.nonce)
        }
    }

    private func sealInner(_ inner: [UInt8], version: UInt8 = 2) throws -> String {
        try inner.withUnsafeBytes { plaintext in
            try ring.seal(
                version: version, plaintext: plaintext, context: Fixtures.context,
                nonce: Self.nonce)
        }
    }

    @Test func sealingMatchesTheKnownAnswers() throws {
        #expect(try seal(bound) == Self.boundVector)
        #expect(try seal(unbound) == Self.unboundVector)
    }

    @Test func knownAnswersOpenWithEveryField() throws {
        let opened = try ring.open(Self.boundVector, context: Fixtures.context)
        #expect(opened.plaintext == Fixtures.refreshToken)
        #expect(opened.grant == bound)
        #expect(opened.grant?.thumbprint == Self.thumbprint)
        #expect(opened.grant?.familyID == Self.familyID)
        #expect(opened.grant?.startTime == Self.startTime)
        #expect(opened.grant?.generation == 3)
        let plain = try ring.open(Self.unboundVector, context: Fixtures.context)
        #expect(plain.plaintext == Fixtures.refreshToken && plain.grant == unbound)
    }

    /// CONTRACT §13: every earlier version still opens, with no binding and no family.
    @Test func versionOneStillOpensWithoutAGrant() throws {
        let opened = try ring.open(Self.versionOneVector, context: Fixtures.context)
        #expect(opened.plaintext == Fixtures.refreshToken)
        #expect(opened.grant == nil)
        #expect(opened.keyID == "k1" && opened.sealedWithActiveKey)
        let made = try Fixtures.refreshToken.withUnsafeBytes { value in
            try ring.seal(
                version: 1, plaintext: value, context: Fixtures.context, nonce: Self.nonce)
        }
        #expect(made == Self.versionOneVector)
        let rotated = try Fixtures.ring("k2:\(Fixtures.keyB),k1:\(Fixtures.keyA)")
        let old = try rotated.open(Self.versionOneVector, context: Fixtures.context)
        #expect(old.grant == nil && !old.sealedWithActiveKey)
        #expect(throws: SealingError.invalidToken) {
            try ring.open(
                Self.versionOneVector,
                context: SealingContext(provider: "spotify", clientID: "client-124"))
        }
    }

    @Test func everyBitOfTheBoundFormMatters() throws {
        let bytes = try #require(Base64URL.decode(Substring(Self.boundVector)))
        var opened = 0
        for index in bytes.indices {
            for bit in 0..<8 {
                var tampered = bytes
                tampered[index] ^= 1 << UInt8(bit)
                if (try? ring.open(Base64URL.encode(tampered), context: Fixtures.context)) != nil {
                    opened += 1
                }
            }
        }
        #expect(opened == 0)
    }

    /// Relabelling a version-2 token as version 1 (or the reverse) fails the tag: the
    /// version is in the associated data.
    @Test func versionsDoNotOpenAsEachOther() throws {
        for vector in [Self.boundVector, Self.versionOneVector] {
            var bytes = try #require(Base64URL.decode(Substring(vector)))
            bytes[0] = bytes[0] == 1 ? 2 : 1
            #expect(throws: SealingError.invalidToken) {
                try ring.open(Base64URL.encode(bytes), context: Fixtures.context)
            }
        }
    }

    @Test(arguments: [
        SealingContext(provider: "linkedin", clientID: "client-123"),
        SealingContext(provider: "spotify", clientID: "client-124"),
        SealingContext(provider: "spotify", clientID: "client-123", kind: .deviceCode),
    ])
    func otherContextsFail(_ context: SealingContext) {
        #expect(throws: SealingError.invalidToken) {
            try ring.open(Self.boundVector, context: context)
        }
    }

    /// Inner layouts that the tag authenticates but that are not well formed (only a bug
    /// or a stolen key could make them): too short for their flags, unknown flags.
    @Test func malformedInnerLayoutsDoNotOpen() throws {
        let unboundInner: [UInt8] =
            [0x00] + Self.familyID + [0, 0, 0, 0, 0x69, 0x55, 0xB8, 0x00]
            + [UInt8](repeating: 0, count: 8)
        #expect(unboundInner.count == 33)
        #expect(
            try ring.open(try sealInner(unboundInner), context: Fixtures.context).plaintext == [])
        for length in 0..<33 {
            #expect(throws: SealingError.invalidToken) {
                try ring.open(
                    try sealInner(Array(unboundInner.prefix(length))), context: Fixtures.context)
            }
        }
        // Bound, but the thumbprint cut short.
        var boundInner = unboundInner
        boundInner[0] = 0x01
        for extra in [0, 1, 31] {
            let inner = boundInner + [UInt8](repeating: 0xAB, count: extra)
            #expect(throws: SealingError.invalidToken) {
                try ring.open(try sealInner(inner), context: Fixtures.context)
            }
        }
        let full = boundInner + Self.thumbprint
        #expect(
            try ring.open(try sealInner(full), context: Fixtures.context).grant?.thumbprint
                == Self.thumbprint)
        for flags in [0x02, 0x03, 0x80, 0xFF] as [UInt8] {
            var inner = full
            inner[0] = flags
            #expect(throws: SealingError.invalidToken) {
                try ring.open(try sealInner(inner), context: Fixtures.context)
            }
        }
    }

    @Test func familiesAreFreshAndGenerationsCount() throws {
        let first = try ring.open(
            try ring.seal("a", context: Fixtures.context), context: Fixtures.context)
        let second = try ring.open(
            try ring.seal("a", context: Fixtures.context), context: Fixtures.context)
        let a = try #require(first.grant)
        let b = try #require(second.grant)
        #expect(a.familyID != b.familyID)
        #expect(a.generation == 0 && a.thumbprint == nil && a.startTime > 1_700_000_000)
        let next = try #require(a.nextGeneration(thumbprint: Self.thumbprint))
        #expect(next.familyID == a.familyID && next.startTime == a.startTime)
        #expect(next.generation == 1 && next.thumbprint == Self.thumbprint)
        let last = try #require(
            SealedGrant(thumbprint: nil, familyID: Self.familyID, startTime: 0, generation: .max))
        #expect(last.nextGeneration(thumbprint: nil)?.generation == .max)
        #expect(
            SealedGrant(thumbprint: [1], familyID: Self.familyID, startTime: 0, generation: 0)
                == nil)
        #expect(SealedGrant(thumbprint: nil, familyID: [1, 2], startTime: 0, generation: 0) == nil)
    }

    /// Neither the family id nor the thumbprint nor the value in any textual form.
    @Test func descriptionsShowNoIdentifier() throws {
        let opened = try ring.open(Self.boundVector, context: Fixtures.context)
        for text in [
            String(describing: opened), String(reflecting: opened), String(describing: bound),
        ] {
            #expect(!text.contains(Hex.encode(Self.familyID)))
            #expect(!text.contains("16, 17"))
            #expect(!text.contains(Hex.encode(Self.thumbprint)))
            #expect(!text.contains("AQD"))
        }
    }
}
