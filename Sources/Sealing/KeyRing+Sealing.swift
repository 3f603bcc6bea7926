import COpenSSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension KeyRing {
    /// Seals `plaintext` for `context` under the active key as the first token of a new,
    /// unbound grant family starting now; the result is base64url text laid out as
    /// `SealedTokenLayout` describes (version 2).
    public func seal(_ plaintext: [UInt8], context: SealingContext) throws(SealingError)
        -> String
    {
        try seal(plaintext, grant: Self.newFamily(), context: context)
    }

    /// Seals the UTF-8 bytes of `plaintext` as the first token of a new, unbound family.
    public func seal(_ plaintext: String, context: SealingContext) throws(SealingError)
        -> String
    {
        try seal(plaintext, grant: Self.newFamily(), context: context)
    }

    /// Seals `plaintext` with `grant`'s binding and family (CONTRACT §13, §14).
    public func seal(_ plaintext: [UInt8], grant: SealedGrant, context: SealingContext)
        throws(SealingError) -> String
    {
        // Array and String lend their bytes through untyped `rethrows`; Result carries
        // the typed error across.
        try plaintext.withUnsafeBytes { plaintext in
            Result { () throws(SealingError) in
                try seal(value: plaintext, grant: grant, context: context)
            }
        }.get()
    }

    /// Seals the UTF-8 bytes of `plaintext` with `grant`'s binding and family.
    public func seal(_ plaintext: String, grant: SealedGrant, context: SealingContext)
        throws(SealingError) -> String
    {
        try plaintext.withUTF8Bytes { utf8 throws(SealingError) in
            try seal(value: UnsafeRawBufferPointer(utf8), grant: grant, context: context)
        }
    }

    private static func newFamily() throws(SealingError) -> SealedGrant {
        guard
            let grant = SealedGrant.newFamily(thumbprint: nil, startTime: UInt64(max(0, time(nil))))
        else { throw .cryptoUnavailable }
        return grant
    }

    /// Opens a sealed token for `context`. Every failure that the input can cause is
    /// `.invalidToken`, and no plaintext leaves this function unless the tag verified.
    public func open(_ sealed: Substring, context: SealingContext) throws(SealingError)
        -> OpenedToken
    {
        // Bounded before decoding, so a huge input costs nothing but this comparison.
        guard sealed.utf8.count <= SealedTokenLayout.maxTextLength(context.kind) else {
            throw .invalidToken
        }
        var sealed = sealed
        return try sealed.withUTF8 { text in
            Result { () throws(SealingError) in
                guard let byteCount = Base64URL.decodedLength(characterCount: text.count) else {
                    throw .invalidToken
                }
                return try withScratch(byteCount: byteCount) { bytes throws(SealingError) in
                    guard Base64URL.decode(text, into: bytes) == byteCount else {
                        throw .invalidToken
                    }
                    return try open(bytes: UnsafeRawBufferPointer(bytes), context: context)
                }
            }
        }.get()
    }

    /// Seals `plaintext` as it is, in layout version 1: for values that belong to no grant
    /// (a kept answer, CONTRACT §12), which need no family and so no random draw for one.
    package func sealWithoutGrant(_ plaintext: [UInt8], context: SealingContext)
        throws(SealingError) -> String
    {
        try plaintext.withUnsafeBytes { plaintext in
            Result { () throws(SealingError) in
                try seal(
                    version: SealedTokenLayout.versionWithoutGrant, plaintext: plaintext,
                    context: context)
            }
        }.get()
    }

    /// Seals `byteCount` bytes that `plaintext` writes, in layout version 1, as the sealed
    /// bytes themselves rather than base64url text: for a value the service keeps in its
    /// own state and never hands to a client (a kept answer, CONTRACT §12), where text would
    /// only cost an encoding and a third more bytes. `plaintext` writes straight into the
    /// result, where it is encrypted in place, so no other copy of it is made.
    package func sealWithoutGrant(
        byteCount: Int, context: SealingContext,
        plaintext: (UnsafeMutableRawBufferPointer) -> Void
    ) throws(SealingError) -> [UInt8] {
        let total = try sealedByteCount(plaintextCount: byteCount, context: context)
        var failure: SealingError?
        let sealed = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            do throws(SealingError) {
                try sealWithoutGrant(
                    into: UnsafeMutableRawBufferPointer(buffer), context: context,
                    plaintext: plaintext)
                initialized = total
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return sealed
    }

    /// `sealWithoutGrant(byteCount:context:plaintext:)` into `sealed`, which the caller
    /// provides (where the value is kept: the replay window's ring), exactly
    /// `sealedByteCount(plaintextCount:context:)` bytes long; the plaintext is the rest
    /// after the layout's header, nonce and tag. On failure nothing of the plaintext is
    /// left in `sealed`.
    package func sealWithoutGrant(
        into sealed: UnsafeMutableRawBufferPointer, context: SealingContext,
        plaintext: (UnsafeMutableRawBufferPointer) -> Void
    ) throws(SealingError) {
        try writeSealed(
            version: SealedTokenLayout.versionWithoutGrant, into: sealed, context: context,
            plaintext: plaintext)
    }

    /// Opens the sealed bytes `sealWithoutGrant(byteCount:context:plaintext:)` made; every
    /// failure the input can cause is `.invalidToken`, as for text.
    package func open(sealedBytes sealed: [UInt8], context: SealingContext)
        throws(SealingError) -> OpenedToken
    {
        guard sealed.count <= SealedTokenLayout.maxByteLength(context.kind) else {
            throw .invalidToken
        }
        return try sealed.withUnsafeBytes { bytes in
            Result { () throws(SealingError) in try open(bytes: bytes, context: context) }
        }.get()
    }

    /// Opens a sealed token given as a String.
    public func open(_ sealed: String, context: SealingContext) throws(SealingError)
        -> OpenedToken
    {
        try open(Substring(sealed), context: context)
    }

    /// Version 2: the inner layout of `grant` followed by `value`, written into scratch
    /// memory that is wiped afterwards. `nonce` is for known-answer tests only.
    func seal(
        value: UnsafeRawBufferPointer, grant: SealedGrant, context: SealingContext,
        nonce: [UInt8]? = nil
    ) throws(SealingError) -> String {
        let innerCount = SealedTokenLayout.Inner.byteCount(grant)
        let (total, overflow) = innerCount.addingReportingOverflow(value.count)
        guard !overflow else { throw .plaintextTooLong }
        return try withScratch(byteCount: total) { inner throws(SealingError) in
            defer { OPENSSL_cleanse(inner.baseAddress, inner.count) }
            SealedTokenLayout.Inner.write(
                grant, into: UnsafeMutableRawBufferPointer(rebasing: inner[..<innerCount]))
            UnsafeMutableRawBufferPointer(rebasing: inner[innerCount...]).copyMemory(from: value)
            return try seal(
                version: SealedTokenLayout.version, plaintext: UnsafeRawBufferPointer(inner),
                context: context, nonce: nonce)
        }
    }

    /// The outer layout of `version` around `plaintext` as it is (for version 1, the
    /// provider's value; for version 2, the inner layout). Tests reach it to make tokens
    /// of the earlier version and malformed inner layouts.
    func seal(
        version: UInt8, plaintext: UnsafeRawBufferPointer, context: SealingContext,
        nonce fixedNonce: [UInt8]? = nil
    ) throws(SealingError) -> String {
        let total = try sealedByteCount(plaintextCount: plaintext.count, context: context)
        return try withScratch(byteCount: total) { sealed throws(SealingError) in
            try writeSealed(version: version, into: sealed, context: context, nonce: fixedNonce) {
                $0.copyMemory(from: plaintext)
            }
            return Base64URL.encode(UnsafeRawBufferPointer(sealed))
        }
    }

    /// The bytes of a value of `plaintextCount` bytes sealed under the active key; refused
    /// when its text would be longer than `open` takes for `context`'s kind (never issue a
    /// token that `open` would refuse for its length).
    package func sealedByteCount(plaintextCount: Int, context: SealingContext)
        throws(SealingError) -> Int
    {
        let overhead =
            SealedTokenLayout.headerByteCount(keyIDLength: activeKey.id.utf8.count)
            + SealedTokenLayout.nonceByteCount + SealedTokenLayout.tagByteCount
        let (total, overflow) = plaintextCount.addingReportingOverflow(overhead)
        guard plaintextCount >= 0, !overflow,
            total <= SealedTokenLayout.maxByteLength(context.kind)
        else { throw .plaintextTooLong }
        return total
    }

    /// Writes the outer layout of `version` into `sealed` (exactly `sealedByteCount` bytes
    /// for the plaintext): header, a fresh nonce (or `fixedNonce`, for known-answer tests),
    /// then the plaintext `fill` writes where the ciphertext goes, encrypted there in place
    /// (GCM is a stream mode: OpenSSL allows input and output to be the same bytes), and
    /// the tag. On failure the plaintext is wiped before the error leaves.
    private func writeSealed(
        version: UInt8, into sealed: UnsafeMutableRawBufferPointer, context: SealingContext,
        nonce fixedNonce: [UInt8]? = nil, plaintext fill: (UnsafeMutableRawBufferPointer) -> Void
    ) throws(SealingError) {
        let key = activeKey
        let keyIDCount = key.id.utf8.count
        let headerCount = SealedTokenLayout.headerByteCount(keyIDLength: keyIDCount)
        let ciphertextStart = headerCount + SealedTokenLayout.nonceByteCount
        let tagStart = sealed.count - SealedTokenLayout.tagByteCount
        guard ciphertextStart <= tagStart else { throw .cryptoUnavailable }
        sealed[0] = version
        sealed[1] = UInt8(keyIDCount)
        key.id.withUTF8Bytes { utf8 in
            UnsafeMutableRawBufferPointer(rebasing: sealed[2..<headerCount])
                .copyMemory(from: UnsafeRawBufferPointer(utf8))
        }
        let nonce = UnsafeMutableRawBufferPointer(rebasing: sealed[headerCount..<ciphertextStart])
        if let fixedNonce {
            guard fixedNonce.count == nonce.count else { throw .cryptoUnavailable }
            nonce.copyBytes(from: fixedNonce)
        } else {
            guard SecureRandom.fillNonce(nonce) else { throw .cryptoUnavailable }
        }
        let text = UnsafeMutableRawBufferPointer(rebasing: sealed[ciphertextStart..<tagStart])
        fill(text)
        do throws(SealingError) {
            try withAssociatedData(
                header: UnsafeRawBufferPointer(rebasing: sealed[..<headerCount]), context: context
            ) { associatedData throws(SealingError) in
                try key.withKeyedContext { cipher throws(SealingError) in
                    try AES256GCM.seal(
                        in: cipher, nonce: UnsafeRawBufferPointer(nonce),
                        associatedData: associatedData, plaintext: UnsafeRawBufferPointer(text),
                        ciphertext: text,
                        tag: UnsafeMutableRawBufferPointer(rebasing: sealed[tagStart...]))
                }
            }
        } catch {
            // Whole or in part, the plaintext may still be there.
            OPENSSL_cleanse(text.baseAddress, text.count)
            throw error
        }
    }

    private func open(bytes: UnsafeRawBufferPointer, context: SealingContext)
        throws(SealingError) -> OpenedToken
    {
        let version = bytes.first
        guard bytes.count >= SealedTokenLayout.minimumByteCount,
            version == SealedTokenLayout.version
                || version == SealedTokenLayout.versionWithoutGrant
        else { throw .invalidToken }
        let keyIDLength = Int(bytes[1])
        let headerCount = SealedTokenLayout.headerByteCount(keyIDLength: keyIDLength)
        let ciphertextStart = headerCount + SealedTokenLayout.nonceByteCount
        let tagStart = bytes.count - SealedTokenLayout.tagByteCount
        guard (1...Self.maxKeyIDLength).contains(keyIDLength), ciphertextStart <= tagStart,
            let key = key(matching: UnsafeRawBufferPointer(rebasing: bytes[2..<headerCount]))
        else { throw .invalidToken }

        return try withScratch(byteCount: tagStart - ciphertextStart) {
            output throws(SealingError) in
            // Plaintext, authenticated or not, must not linger where a later bug could
            // read it: only the provider's value leaves, in its own array.
            defer { OPENSSL_cleanse(output.baseAddress, output.count) }
            try withAssociatedData(
                header: UnsafeRawBufferPointer(rebasing: bytes[..<headerCount]),
                context: context
            ) { associatedData throws(SealingError) in
                try key.withKeyedContext { cipher throws(SealingError) in
                    try AES256GCM.open(
                        in: cipher,
                        nonce: UnsafeRawBufferPointer(
                            rebasing: bytes[headerCount..<ciphertextStart]),
                        associatedData: associatedData,
                        ciphertext: UnsafeRawBufferPointer(
                            rebasing: bytes[ciphertextStart..<tagStart]),
                        tag: UnsafeRawBufferPointer(rebasing: bytes[tagStart...]),
                        plaintext: output)
                }
            }
            let plaintext = UnsafeRawBufferPointer(output)
            let identity = SealIdentity(
                version: bytes[0], keyID: key.id,
                nonce: UnsafeRawBufferPointer(rebasing: bytes[headerCount..<ciphertextStart]),
                tag: UnsafeRawBufferPointer(rebasing: bytes[tagStart...]))
            guard version == SealedTokenLayout.version else {
                return OpenedToken(
                    plaintext: Array(plaintext), keyID: key.id,
                    sealedWithActiveKey: key === activeKey, sealIdentity: identity)
            }
            guard let (grant, valueOffset) = SealedTokenLayout.Inner.read(plaintext) else {
                throw .invalidToken
            }
            return OpenedToken(
                plaintext: Array(plaintext[valueOffset...]), keyID: key.id,
                sealedWithActiveKey: key === activeKey, grant: grant, sealIdentity: identity)
        }
    }

    private func key(matching keyID: UnsafeRawBufferPointer) -> SealingKey? {
        for key in keys where key.id.utf8.elementsEqual(keyID) {
            return key
        }
        return nil
    }

    private func withAssociatedData<R>(
        header: UnsafeRawBufferPointer, context: SealingContext,
        _ body: (UnsafeRawBufferPointer) throws(SealingError) -> R
    ) throws(SealingError) -> R {
        let count = SealedTokenLayout.associatedDataByteCount(
            headerByteCount: header.count, context: context)
        return try withScratch(byteCount: count) { buffer throws(SealingError) in
            SealedTokenLayout.writeAssociatedData(header: header, context: context, into: buffer)
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// Temporary bytes (on the stack when small) for one operation.
    private func withScratch<R>(
        byteCount: Int, _ body: (UnsafeMutableRawBufferPointer) throws(SealingError) -> R
    ) throws(SealingError) -> R {
        let result: Result<R, SealingError> = withUnsafeTemporaryAllocation(
            byteCount: byteCount, alignment: 16
        ) { buffer in
            Result { () throws(SealingError) in try body(buffer) }
        }
        return try result.get()
    }
}
