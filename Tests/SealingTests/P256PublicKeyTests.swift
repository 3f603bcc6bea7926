import COpenSSL
import Crypto
import Testing

@testable import Sealing

/// ES256 and RFC 7638 thumbprints through OpenSSL (CONTRACT §13), against a key, a
/// signature and a thumbprint computed outside Swift with Python's `cryptography`
/// (private key d = 0x0102…20; thumbprint by RFC 7638 §3's procedure with `json.dumps`
/// of the sorted required members and `hashlib.sha256`).
@Suite struct P256PublicKeyTests {
    static let x = Base64URL.decode("UVw9brnjlrkE0_7Kf1T9zQzB6Ze_N13KUVrQpsO0A18")!
    static let y = Base64URL.decode("RTa-OlDzGPv5pUdZAqIhUCvvDVfgjFOyzApW8X2fk1Q")!
    static let message = Array("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ0b2tlbnN3YXAifQ".utf8)
    static let signature = Base64URL.decode(
        "nbBDlTenIwN4wKWB8ttURK_UMByc5vtg60-JyGCv4N8fkt05Zfv2SbbJg3UEcrROe6PTzXo-F61o2R5CIl7-Lg")!

    let key: P256PublicKey

    init() throws {
        key = try #require(P256PublicKey(x: Self.x, y: Self.y))
    }

    @Test func verifiesASignatureMadeElsewhere() {
        #expect(key.verifies(signature: Self.signature, of: Self.message))
        #expect(key.verifies(signature: Self.signature, of: Self.message[...]))
    }

    @Test func refusesEveryAlteredSignatureAndMessage() {
        var accepted = 0
        for index in Self.signature.indices {
            var tampered = Self.signature
            tampered[index] ^= 0x01
            if key.verifies(signature: tampered, of: Self.message) { accepted += 1 }
        }
        for index in Self.message.indices {
            var tampered = Self.message
            tampered[index] ^= 0x01
            if key.verifies(signature: Self.signature, of: tampered) { accepted += 1 }
        }
        #expect(accepted == 0)
    }

    /// JWS's r‖s is exactly 64 bytes; 63, 65, DER, zeros and r, s at or above the order
    /// are refused (no crash, no OpenSSL error left behind).
    @Test func refusesMalformedSignatures() {
        let r = Array(Self.signature[..<32])
        let s = Array(Self.signature[32...])
        let order = Self.order
        let der: [UInt8] = [0x30, 0x44, 0x02, 0x20] + r + [0x02, 0x20] + s
        for signature in [
            Array(Self.signature.prefix(63)), Self.signature + [0], der, [],
            [UInt8](repeating: 0, count: 64),
            order + s, r + order, [UInt8](repeating: 0xFF, count: 64), s + r,
        ] {
            #expect(!key.verifies(signature: signature, of: Self.message))
        }
        #expect(ERR_peek_error() == 0)
    }

    /// Each thread writes every signature into one kept signature value: a refused
    /// signature leaves nothing behind for the next, and threads do not share it.
    @Test func signaturesCheckedInTurnAndOnManyThreadsKeepTheirVerdicts() async {
        var zeroS = Self.signature
        for index in 32..<64 { zeroS[index] = 0 }
        var flipped = Self.signature
        flipped[40] ^= 0x01
        let sequence: [([UInt8], Bool)] = [
            (Self.signature, true), (flipped, false), (Self.signature, true), (zeroS, false),
            (Self.signature, true), (Array(Self.signature.prefix(63)), false),
            (Self.signature, true),
        ]
        for (signature, valid) in sequence {
            #expect(key.verifies(signature: signature, of: Self.message) == valid)
        }
        let key = self.key
        let wrong = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<50 {
                        let (signature, valid) = sequence[(task + round) % sequence.count]
                        if key.verifies(signature: signature, of: Self.message) != valid {
                            wrong += 1
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        #expect(ERR_peek_error() == 0)
    }

    @Test func refusesPointsOffTheCurveAndWrongLengths() {
        var y = Self.y
        y[31] ^= 0x01
        #expect(P256PublicKey(x: Self.x, y: y) == nil)
        #expect(P256PublicKey(x: Self.y, y: Self.x) == nil)
        #expect(
            P256PublicKey(x: [UInt8](repeating: 0, count: 32), y: [UInt8](repeating: 0, count: 32))
                == nil)
        // The field prime itself as a coordinate.
        let prime = Hex.decode("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")!
        #expect(P256PublicKey(x: prime, y: Self.y) == nil)
        #expect(P256PublicKey(x: Array(Self.x.dropFirst()), y: Self.y) == nil)
        #expect(P256PublicKey(x: [0] + Self.x, y: Self.y) == nil)
        #expect(ERR_peek_error() == 0)
    }

    @Test func anotherKeyDoesNotVerify() throws {
        // The generator G of P-256: a valid key that did not sign.
        let gx = Hex.decode("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")!
        let gy = Hex.decode("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")!
        let other = try #require(P256PublicKey(x: gx, y: gy))
        #expect(!other.verifies(signature: Self.signature, of: Self.message))
    }

    /// Every Wycheproof P-256 SHA-256 P1363 test, each key's tests in turn: valid signatures
    /// (high and low s, small r and s, x(R) at or above n) verify, and every broken one
    /// (r or s zero, n, p or beyond, the wrong length, s⁻¹ edge cases, a sum at infinity)
    /// is refused without an OpenSSL error left behind.
    @Test(arguments: WycheproofP256.keys)
    func wycheproofVectors(_ vectors: WycheproofP256Key) throws {
        let x = try #require(Hex.decode(vectors.x))
        let y = try #require(Hex.decode(vectors.y))
        let key = try #require(P256PublicKey(x: x, y: y))
        for test in vectors.tests {
            let message = try #require(Hex.decode(test.message))
            let signature = try #require(Hex.decode(test.signature))
            #expect(
                key.verifies(signature: signature, of: message) == test.valid,
                "tcId \(test.id): \(test.comment)")
        }
        #expect(ERR_peek_error() == 0)
    }

    /// Signatures made by swift-crypto (BoringSSL's P-256 on Linux), each key new, each
    /// message of another length: every one verifies, so does its high-s twin (n − s, the
    /// same signature for ECDSA), and the same signature with one bit flipped, of another
    /// message or by another key does not.
    @Test func agreesWithSignaturesMadeBySwiftCrypto() throws {
        let order = Self.order
        var generator = SystemRandomNumberGenerator()
        var wrong: [String] = []
        for round in 0..<300 {
            let signer = P256.Signing.PrivateKey()
            let point = signer.publicKey.rawRepresentation
            let key = try #require(
                P256PublicKey(x: Array(point.prefix(32)), y: Array(point.suffix(32))))
            let message = (0..<(round % 97)).map { _ in UInt8.random(in: 0...255, using: &generator)
            }
            let signature = Array(try signer.signature(for: message).rawRepresentation)
            let r = Array(signature.prefix(32))
            let highS = r + Self.subtract(Array(signature.suffix(32)), from: order)
            var flipped = signature
            flipped[Int.random(in: 0..<64, using: &generator)] ^=
                1 << UInt8.random(in: 0..<8, using: &generator)
            let otherKey = P256.Signing.PrivateKey().publicKey.rawRepresentation
            let other = try #require(
                P256PublicKey(x: Array(otherKey.prefix(32)), y: Array(otherKey.suffix(32))))
            if !key.verifies(signature: signature, of: message) { wrong.append("\(round): valid") }
            if !key.verifies(signature: highS, of: message) { wrong.append("\(round): high s") }
            if key.verifies(signature: flipped, of: message) { wrong.append("\(round): flipped") }
            if key.verifies(signature: signature, of: message + [0]) {
                wrong.append("\(round): message")
            }
            if other.verifies(signature: signature, of: message) {
                wrong.append("\(round): other key")
            }
        }
        #expect(wrong == [])
        #expect(ERR_peek_error() == 0)
    }

    @Test func thumbprintMatchesRFC7638ComputedElsewhere() {
        #expect(key.thumbprintText == "6UoWwDCkLjV0J-pQG8c0THxbVhBcpR0AZDift1Yl5DM")
        #expect(key.thumbprint == SealedGrantLayoutTests.thumbprint)
    }

    /// n, the order of P-256's group (SEC 2 §2.4.2).
    static let order = Hex.decode(
        "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")!

    /// b − a as 32-byte big-endian numbers, for a ≤ b (n − s: the high-s twin).
    static func subtract(_ a: [UInt8], from b: [UInt8]) -> [UInt8] {
        var difference = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in (0..<32).reversed() {
            var total = Int(b[index]) - Int(a[index]) - borrow
            borrow = total < 0 ? 1 : 0
            if total < 0 { total += 256 }
            difference[index] = UInt8(total)
        }
        return difference
    }
}
