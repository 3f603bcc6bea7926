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
        var plaintext = plaintext
        return try plaintext.withUTF8 { utf8 in
            Result { () throws(SealingError) in
                try seal(value: UnsafeRawBufferPointer(utf8), grant: grant, context: context)
            }
        }.get()
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
        let key = activeKey
        let keyIDCount = key.id.utf8.count
        let headerCount = SealedTokenLayout.headerByteCount(keyIDLength: keyIDCount)
        let ciphertextStart = headerCount + SealedTokenLayout.nonceByteCount
        let tagStart = ciphertextStart + plaintext.count
        let total = tagStart + SealedTokenLayout.tagByteCount
        // Never issue a token that `open` would refuse for its length.
        guard
            Base64URL.encodedLength(byteCount: total)
                <= SealedTokenLayout.maxTextLength(context.kind)
        else { throw .plaintextTooLong }

        return try withScratch(byteCount: total) { sealed throws(SealingError) in
            sealed[0] = version
            sealed[1] = UInt8(keyIDCount)
            var offset = 2
            for byte in key.id.utf8 {
                sealed[offset] = byte
                offset += 1
            }
            let nonce = UnsafeMutableRawBufferPointer(
                rebasing: sealed[headerCount..<ciphertextStart])
            if let fixedNonce {
                guard fixedNonce.count == nonce.count else { throw .cryptoUnavailable }
                nonce.copyBytes(from: fixedNonce)
            } else {
                guard SecureRandom.fillNonce(nonce) else { throw .cryptoUnavailable }
            }
            try withAssociatedData(
                header: UnsafeRawBufferPointer(rebasing: sealed[..<headerCount]), context: context
            ) { associatedData throws(SealingError) in
                try key.withKeyedContext { cipher throws(SealingError) in
                    try AES256GCM.seal(
                        in: cipher, nonce: UnsafeRawBufferPointer(nonce),
                        associatedData: associatedData, plaintext: plaintext,
                        ciphertext: UnsafeMutableRawBufferPointer(
                            rebasing: sealed[ciphertextStart..<tagStart]),
                        tag: UnsafeMutableRawBufferPointer(rebasing: sealed[tagStart...]))
                }
            }
            return Base64URL.encode(UnsafeRawBufferPointer(sealed))
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
            guard version == SealedTokenLayout.version else {
                return OpenedToken(
                    plaintext: Array(plaintext), keyID: key.id,
                    sealedWithActiveKey: key === activeKey)
            }
            guard let (grant, valueOffset) = SealedTokenLayout.Inner.read(plaintext) else {
                throw .invalidToken
            }
            return OpenedToken(
                plaintext: Array(plaintext[valueOffset...]), keyID: key.id,
                sealedWithActiveKey: key === activeKey, grant: grant)
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
