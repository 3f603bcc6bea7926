#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension UnsafeRawBufferPointer {
    /// Whether `other` holds the same bytes, by one `memcmp` (a collection's `==` and
    /// `elementsEqual` compare element by element): the one byte comparison of a proof's
    /// parts, the request's origin and a bound thumbprint (CONTRACT §13). Not for secrets:
    /// it stops at the first difference (a nonce is compared in constant time,
    /// `DPoPNonces`).
    func sameBytes(as other: UnsafeRawBufferPointer) -> Bool {
        guard count == other.count else { return false }
        guard let base = baseAddress, let otherBase = other.baseAddress else { return true }
        return memcmp(base, otherBase, count) == 0
    }
}
