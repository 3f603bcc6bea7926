import COpenSSL
import Sealing
import Testing

/// `tokenswap_p256_order_inverse` (p256_order.c), which the ES256 check uses for s⁻¹ mod n,
/// against the definition: x · w ≡ 1 (mod n), and ≡ 2^256 in Montgomery form, checked by a plain double-and-add product
/// here that shares nothing with the C code.
@Suite struct P256OrderInverseTests {
    static let order = Hex.decode(
        "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")!

    /// Edge values: 1, 2, small numbers, powers of two, n − 1 and just below n, numbers
    /// of all ones and of single limbs, and random ones.
    @Test func everyInverseIsOneWhenMultipliedBack() {
        var values: [[UInt8]] = []
        for small in 1...40 { values.append(Self.bytes(small)) }
        for bit in 0..<256 {
            var value = [UInt8](repeating: 0, count: 32)
            value[31 - bit / 8] = 1 << UInt8(bit % 8)
            if Self.compare(value, Self.order) < 0 { values.append(value) }
            values.append(Self.subtract(value, from: Self.order))
        }
        for below in 1...40 { values.append(Self.subtract(Self.bytes(below), from: Self.order)) }
        values.append(
            Self.subtract(
                Self.bytes(1), from: [0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 28)))
        values.append([UInt8](repeating: 0, count: 24) + [UInt8](repeating: 0xFF, count: 8))
        values.append([UInt8](repeating: 0x55, count: 32))
        #expect(values.allSatisfy { Self.compare($0, Self.order) < 0 && $0.contains { $0 != 0 } })
        var generator = SystemRandomNumberGenerator()
        while values.count < 3_000 {
            let value = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if Self.compare(value, Self.order) < 0, value.contains(where: { $0 != 0 }) {
                values.append(value)
            }
        }
        // In Montgomery form the product is 2^256 mod n, which is 2^256 − n.
        let montgomeryOne = Self.subtract(Self.order, from: [UInt8](repeating: 0, count: 32))
        var wrong: [String] = []
        for value in values {
            var inverse = [UInt8](repeating: 0, count: 32)
            var montgomery = [UInt8](repeating: 0, count: 32)
            if tokenswap_p256_order_inverse(value, &inverse, 0) != 1
                || Self.multiply(value, inverse) != Self.bytes(1)
            {
                wrong.append(Hex.encode(value))
            }
            if tokenswap_p256_order_inverse(value, &montgomery, 1) != 1
                || Self.multiply(value, montgomery) != montgomeryOne
            {
                wrong.append("Montgomery form of " + Hex.encode(value))
            }
        }
        #expect(wrong == [])
    }

    @Test func zeroAndNumbersFromTheOrderUpHaveNone() {
        var inverse = [UInt8](repeating: 7, count: 32)
        for value in [
            [UInt8](repeating: 0, count: 32), Self.order, Self.add(Self.order, Self.bytes(1)),
            [UInt8](repeating: 0xFF, count: 32),
        ] {
            #expect(tokenswap_p256_order_inverse(value, &inverse, 0) == 0)
            #expect(tokenswap_p256_order_inverse(value, &inverse, 1) == 0)
        }
        #expect(inverse == [UInt8](repeating: 7, count: 32))
    }

    static func bytes(_ value: Int) -> [UInt8] {
        (0..<32).map { index in
            index < 24 ? 0 : UInt8(truncatingIfNeeded: value >> (8 * (31 - index)))
        }
    }

    /// Big-endian 32-byte comparison.
    static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return 0
    }

    /// a + b mod 2^256, and whether it carried out.
    static func addWithCarry(_ a: [UInt8], _ b: [UInt8]) -> ([UInt8], Bool) {
        var sum = [UInt8](repeating: 0, count: 32)
        var carry = 0
        for index in (0..<32).reversed() {
            let total = Int(a[index]) + Int(b[index]) + carry
            sum[index] = UInt8(total & 0xFF)
            carry = total >> 8
        }
        return (sum, carry == 1)
    }

    static func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { addWithCarry(a, b).0 }

    /// b − a mod 2^256.
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

    /// a + b mod n, for a, b < n.
    static func addModOrder(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        let (sum, carried) = addWithCarry(a, b)
        return carried || compare(sum, order) >= 0 ? subtract(order, from: sum) : sum
    }

    /// a · b mod n, bit by bit from b's top: doubling and adding mod n.
    static func multiply(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var product = [UInt8](repeating: 0, count: 32)
        for index in 0..<256 {
            product = addModOrder(product, product)
            if b[index / 8] & (0x80 >> UInt8(index % 8)) != 0 { product = addModOrder(product, a) }
        }
        return product
    }
}
