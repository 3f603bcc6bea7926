import COpenSSL

extension KeyRing {
    /// Seals `plaintext` for `context` under the active key; the result is base64url
    /// text laid out as `SealedTokenLayout` describes.
    public func seal(_ plaintext: [UInt8], context: SealingContext) throws(SealingError)
        -> String
    {
        // Array and String lend their bytes through untyped `rethrows`; Result carries
        // the typed error across.
        try plaintext.withUnsafeBytes { plaintext in
            Result { () throws(SealingError) in try seal(bytes: plaintext, context: context) }
        }.get()
    }

    /// Seals the UTF-8 bytes of `plaintext`.
    public func seal(_ plaintext: String, context: SealingContext) throws(SealingError)
        -> String
    {
        var plaintext = plaintext
        return try plaintext.withUTF8 { utf8 in
            Result { () throws(SealingError) in
                try seal(bytes: UnsafeRawBufferPointer(utf8), context: context)
            }
        }.get()
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

    /// Opens a sealed token given as a String.
    public func open(_ sealed: String, context: SealingContext) throws(SealingError)
        -> OpenedToken
    {
        try open(Substring(sealed), context: context)
    }

    private func seal(bytes plaintext: UnsafeRawBufferPointer, context: SealingContext)
        throws(SealingError) -> String
    {
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
            sealed[0] = SealedTokenLayout.version
            sealed[1] = UInt8(keyIDCount)
            var offset = 2
            for byte in key.id.utf8 {
                sealed[offset] = byte
                offset += 1
            }
            let nonce = UnsafeMutableRawBufferPointer(
                rebasing: sealed[headerCount..<ciphertextStart])
            guard SecureRandom.fillNonce(nonce) else { throw .cryptoUnavailable }
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
        guard bytes.count >= SealedTokenLayout.minimumByteCount,
            bytes[0] == SealedTokenLayout.version
        else { throw .invalidToken }
        let keyIDLength = Int(bytes[1])
        let headerCount = SealedTokenLayout.headerByteCount(keyIDLength: keyIDLength)
        let ciphertextStart = headerCount + SealedTokenLayout.nonceByteCount
        let tagStart = bytes.count - SealedTokenLayout.tagByteCount
        guard (1...Self.maxKeyIDLength).contains(keyIDLength), ciphertextStart <= tagStart,
            let key = key(matching: UnsafeRawBufferPointer(rebasing: bytes[2..<headerCount]))
        else { throw .invalidToken }

        var failure: SealingError?
        let plaintext = [UInt8](unsafeUninitializedCapacity: tagStart - ciphertextStart) {
            output, initializedCount in
            let output = UnsafeMutableRawBufferPointer(output)
            do throws(SealingError) {
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
                initializedCount = output.count
            } catch {
                // Unauthenticated plaintext must not linger where a later bug could read
                // it; an empty array leaves this closure.
                OPENSSL_cleanse(output.baseAddress, output.count)
                initializedCount = 0
                failure = error
            }
        }
        if let failure { throw failure }
        return OpenedToken(
            plaintext: plaintext, keyID: key.id, sealedWithActiveKey: key === activeKey)
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
